/**
 * Collections set out in several grids (issue 28): a shop's category page that shows its
 * items in one shelf per sub-category, none of them long, and says it is a product only in
 * its `og:type` meta (collection-page.ts), is read as a collection, and all its shelves are
 * its content (collection-grids.ts). Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createElement,
  type ElementNode,
  findFirst,
  parseDocument,
} from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { findProductGrids } from '../../src/markdown/product-grid.js';
import { MarkdownWriter } from '../../src/markdown/serialize.js';
import { shownGrids } from '../../src/markdown/wider-content.js';

const URL = 'https://shop.example/collections/outdoor';

const card = (shelf: string, i: number) => `<div class="tile">
  <a href="/products/${shelf}-${i}"><img src="/img/${shelf}-${i}.jpg" alt=""></a>
  <h3><a href="/products/${shelf}-${i}">${shelf} model ${i} for long walks</a></h3>
  <span class="price">From $${100 + i}.00</span></div>`;

const shelf = (name: string, n: number) => `<section class="shelf">
  <h2>${name} shelf.</h2><p>Take your pick of the ${name} we make.</p>
  <div class="scroller">${Array.from({ length: n }, (_, i) => card(name, i)).join('')}</div></section>`;

const INTRO = `<p>Everything for the outdoors, made to last for years of walking in every weather, and repaired by our own workshop when it wears out after all those years.</p>`;

const page = (
  head: string,
  body: string,
) => `<!doctype html><html><head><title>Outdoor</title>${head}</head><body>
  <div id="top"><a href="/">Shop Example</a></div>
  <div class="layout"><div class="story"><h1>Shop outdoor</h1>${INTRO}</div>${body}</div>
  <div class="bottom"><p>BOTTOMTEXT Shop Example, all rights reserved.</p></div></body></html>`;

const META_PRODUCT = '<meta property="og:type" content="product">';
const DATA_PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Tent","offers":{"price":"90"}}</script>';

describe('collections set out in several grids', () => {
  it("keeps every shelf's cards of a page whose grids together hold a collection's count", () => {
    const html = page(
      META_PRODUCT,
      `<div class="shelves">${shelf('boots', 7)}${shelf('tents', 7)}</div>`,
    );
    const md = htmlToMarkdown(html, URL);
    for (let i = 0; i < 7; i++) {
      assert.match(md, new RegExp(`boots model ${i} for`));
      assert.match(md, new RegExp(`tents model ${i} for`));
    }
    assert.match(md, /tents shelf\./);
  });

  it('keeps every shelf of a page that is no product, not only the longest', () => {
    const html = page('', `<div class="shelves">${shelf('boots', 6)}${shelf('tents', 5)}</div>`);
    const md = htmlToMarkdown(html, URL);
    for (let i = 0; i < 5; i++) assert.match(md, new RegExp(`tents model ${i} for`));
    for (let i = 0; i < 6; i++) assert.match(md, new RegExp(`boots model ${i} for`));
  });

  it("puts the category's heading and intro, written apart from the shelves, before them", () => {
    const html = page('', `<div class="shelves">${shelf('boots', 6)}${shelf('tents', 5)}</div>`);
    const md = htmlToMarkdown(html, URL, { headline: false });
    assert.match(md, /Everything for the outdoors/);
    assert.ok(md.indexOf('Everything for the outdoors') < md.indexOf('boots model 0 for'));
    assert.match(md, /tents model 4 for/);
  });

  it('leaves the related rows out of a page whose data says it is a product', () => {
    const description = `<div class="product"><h1>Tent</h1><span class="price">$90.00</span>
      <div class="description"><p>A tent for two, light enough to carry on a long walk and strong enough for the wind on the hills, pitched in five minutes by one person.</p>
      <p>The fly is waterproof, the poles are aluminium, and the pegs are steel; it packs into a bag the size of a loaf of bread and weighs under two kilograms.</p></div></div>`;
    const html = page(
      DATA_PRODUCT,
      `${description}<div class="more">${shelf('boots', 7)}${shelf('tents', 7)}</div>`,
    );
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /fly is waterproof/);
    assert.doesNotMatch(md, /boots model 3 for/);
  });
});

describe('the grid rules on content taken by any path', () => {
  it("gives a collection's grids over a block of prose that lost its cards", () => {
    const html = page('', `<div class="shelves">${shelf('boots', 6)}${shelf('tents', 5)}</div>`);
    const body = findFirst(parseDocument(html).root, 'body') as ElementNode;
    const { best, grids } = findProductGrids(body);
    // what the whole hinted container gives once its cleaning has read the cards as links
    const stripped = createElement('div');
    stripped.children = [
      { type: 'text', text: 'Take your pick of the boots we make.', parent: stripped },
    ];
    const md = new MarkdownWriter(() => null).render(
      shownGrids(stripped, { body, grid: best?.el ?? null, grids }),
    );
    assert.match(md, /boots model 5 for/);
    assert.match(md, /tents model 4 for/);
  });
});
