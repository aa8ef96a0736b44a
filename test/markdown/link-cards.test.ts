/**
 * Rows of link cards on a product page (link-cards.ts): teasers of other pages, each an
 * `<a>` around a picture and a title, go with their heading. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/trail-tent';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Tent"}</script>';

const card = (i: number) => `<a href="/news/${i}" class="event"><div><img src="/n${i}.jpg" alt="">
  <div>CARDTEXT Field notes ${i}: pitching the tent in a storm on the ridge</div>
  <span>March ${i}, 2026</span></div></a>`;

const page = (head: string, row: string) => `<!doctype html><html><head>
  <title>Trail Tent</title>${head}</head><body>
  <div class="product"><h1>Trail Tent</h1><p class="price">$349.00</p>
  <p>A two-person tent for three seasons that pitches in under five minutes, with a single
  hubbed pole, two doors and two vestibules big enough for a pack and a pair of boots.</p>
  <p>The fly is a silicone-coated ripstop that sheds rain and snow, and the floor is cut
  from a heavier fabric that stands up to rocky ground without a footprint.</p>
  ${row}</div></body></html>`;

const row = `<div class="updates"><h2>ROWHEAD Latest news</h2><a href="/news">View all</a>
  <div>${card(1)}${card(2)}${card(3)}</div></div>`;

describe('rows of link cards on a product page', () => {
  it('drops a row of cards linking to other pages, with its heading', () => {
    const md = htmlToMarkdown(page(product, row), URL);
    assert.doesNotMatch(md, /CARDTEXT|ROWHEAD/);
    assert.match(md, /single\s+hubbed pole/);
  });

  it('keeps the row on a page that is not a product', () => {
    const md = htmlToMarkdown(page('', row), URL);
    assert.match(md, /CARDTEXT/);
  });
});
