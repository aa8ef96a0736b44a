/**
 * Repeated blocks (repeated-blocks.ts): a product page whose template writes the description
 * and the buy box once for wide and once for narrow screens says each once in its Markdown;
 * so does a forum thread (schema.org DiscussionForumPosting) whose replies quote a post whole
 * and repeat a signature, while an article keeps a paragraph it repeats on purpose.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/mug-7';

const description = `<p>A wheel-thrown stoneware mug in a white speckle glaze, matte outside and
  glossy inside, that holds a generous cup of tea and keeps it warm for a while.</p>
  <p>Size: approx. 9.5 x 13 x 7 cm, volume approx. 350 ml, safe in dishwashers and microwaves.</p>`;

const page = (head: string) => `<!doctype html><html><head><title>Mug 7</title>${head}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/mugs">Mugs</a></nav></header>
  <div class="product">
    <h1>Mug 7</h1><p class="price">€30.00</p>
    <div class="product-description hidden-down-md">${description}</div>
    <form class="add-to-cart"><button>Add to cart</button></form>
    <div class="product-description hidden-up-md">${description}</div>
  </div>
  <footer><p>Shop Ltd</p></footer></body></html>`;

const jsonLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Mug 7","offers":{"@type":"Offer","price":"30.00","priceCurrency":"EUR"}}</script>`;

const signature =
  '<div class="signature">Running three Raspberry Pi 4 boards and a NAS at home since 2021.</div>';
const firstPost =
  'Since the update to 2024.5 the start-up hangs at the splash screen for ten minutes and the log shows a timeout in the recorder, every single time.';

const thread = (
  head: string,
) => `<!doctype html><html><head><title>Stuck on start-up</title>${head}</head><body>
  <header><nav><a href="/">Forum</a></nav></header>
  <div class="posts"><h1>Stuck on start-up</h1>
    <div class="post"><span class="author">anna</span> <time>May 2</time><p>${firstPost}</p>${signature}</div>
    <div class="post"><span class="author">ben</span> <time>May 2</time>
      <blockquote><p>${firstPost}</p></blockquote>
      <p>Same here: removing the recorder's database file fixed it for me, it rebuilt itself on the next start.</p></div>
    <div class="post"><span class="author">anna</span> <time>May 3</time>
      <p>Thanks, that did it, the start-up takes a few seconds again and the history is back after a day.</p>${signature}</div>
  </div>
  <footer><p>The forum</p></footer></body></html>`;

const discussion = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Stuck on start-up","author":{"@type":"Person","name":"anna"}}</script>`;

const count = (md: string, text: string) => md.split(text).length - 1;

describe('repeated blocks', () => {
  it('says the description of a product page once when its template writes it twice', () => {
    const md = htmlToMarkdown(page(jsonLd), URL);
    assert.equal(count(md, 'wheel-thrown stoneware mug'), 1);
    assert.equal(count(md, 'safe in dishwashers'), 1);
    assert.match(md, /^# Mug 7$/m);
  });

  it('says it once when the narrow copy breaks its lines elsewhere', () => {
    const narrow = description.replace('speckle glaze, matte', 'speckle glaze,<br>matte');
    const html = page(jsonLd).replace(/(hidden-up-md">)[\s\S]*?(<\/div>)/, `$1${narrow}$2`);
    const md = htmlToMarkdown(html, URL);
    assert.equal(count(md, 'wheel-thrown stoneware mug'), 1);
  });

  it('says a forum post once when a reply quotes it whole, and a signature once', () => {
    const md = htmlToMarkdown(thread(discussion), 'https://forum.example.com/t/stuck/42');
    assert.equal(count(md, 'hangs at the splash screen'), 1, md);
    assert.equal(count(md, 'Running three Raspberry Pi'), 1, md);
    assert.match(md, /removing the recorder's database file/);
    assert.match(md, /that did it/);
  });

  it('keeps both copies on a page that says neither product nor discussion', () => {
    const md = htmlToMarkdown(thread(''), 'https://forum.example.com/t/stuck/42');
    assert.equal(count(md, 'hangs at the splash screen'), 2, md);
  });
});

const storyParagraphs = [
  'The harbour wall was finished in the spring, three years after the storm that broke it, and the boats came back within a week of the opening.',
  'The fishermen say the new wall is higher than the old one by almost a metre, which keeps the spray off the quay even in the autumn gales.',
  'The council paid for most of it, the rest came from a fund the village raised with concerts, a market and a long list of small donations.',
  'Next year the slipway is to be rebuilt as well, once the engineers have decided whether the old stones can be used again or must be replaced.',
];
const story = storyParagraphs.map((p) => `<p>${p}</p>`).join('');

describe('repeated copies of a story', () => {
  it('says a story once when a site builder writes it once per breakpoint', () => {
    const html = `<!doctype html><html><head><title>The harbour wall</title></head><body>
      <main><h1>The harbour wall</h1>
        <div class="variant-desktop"><div class="rich-text">${story}</div></div>
        <div class="variant-tablet"><div class="rich-text">${story}</div></div>
        <div class="variant-phone"><div class="rich-text">${story}</div></div>
      </main></body></html>`;
    const md = htmlToMarkdown(html, 'https://village.example.org/news/harbour-wall');
    assert.equal(count(md, 'The harbour wall was finished'), 1, md);
    assert.equal(count(md, 'the slipway is to be rebuilt'), 1, md);
  });

  it('keeps a short block a story repeats on purpose', () => {
    const box =
      '<div class="note"><p>Opening hours of the harbour office: Monday to Friday, 8 to 12.</p></div>';
    const html = `<!doctype html><html><head><title>The harbour wall</title></head><body>
      <article><h1>The harbour wall</h1>${box}${story}${box}</article></body></html>`;
    const md = htmlToMarkdown(html, 'https://village.example.org/news/harbour-wall');
    assert.equal(count(md, 'Opening hours of the harbour office'), 2, md);
  });
});
