/**
 * A product grid's cards keep their `aria-hidden` facts (card-hidden-text.ts): the star
 * rating an icon's hidden text, a count beside it; a hidden copy whose screen-reader twin
 * (under a class the chrome rules do not know) says the same stays hidden, and so does a
 * carousel's hidden copy of a whole card. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/lamps';

const card = (i: number) => `<li class="product-card">
  <h3><a href="/products/lamp-${i}">Brass reading lamp number ${i} with linen shade</a></h3>
  <a class="rating" href="/products/lamp-${i}#reviews" aria-label="4.${i} out of 5 stars"><i aria-hidden="true"><span>4.${i} out of 5 stars</span></i> <span aria-hidden="true">${i}31 ratings</span></a>
  <div class="price"><span aria-hidden="true">$${20 + i}.00</span><span class="x9k">Price $${20 + i}.00</span></div></li>`;

const page = (grid: string) => `<!doctype html><html><head><title>Lamps</title></head><body>
  <div id="top"><a href="/">Shop Example</a></div>
  <div class="collection"><h1>Lamps</h1>${grid}</div>
  <div class="bottom"><p>Shop Example, all rights reserved.</p></div></body></html>`;

describe("the hidden text of a product grid's cards", () => {
  it('keeps the aria-hidden rating and count of each card, and a twinned price once', () => {
    const cards = Array.from({ length: 6 }, (_, i) => card(i)).join('');
    const md = htmlToMarkdown(page(`<ul class="grid">${cards}</ul>`), URL);
    for (let i = 0; i < 6; i++) {
      assert.match(md, new RegExp(`4\\.${i} out of 5 stars`));
      assert.match(md, new RegExp(`${i}31 ratings`));
      assert.equal(md.split(`$${20 + i}.00`).length - 1, 1, `price ${i} once`);
    }
  });

  it("leaves a carousel's hidden copy of a card hidden", () => {
    const cards = Array.from({ length: 6 }, (_, i) => card(i)).join('');
    const clone = card(0)
      .replace('<li class="product-card">', '<li class="product-card" aria-hidden="true">')
      .replace('number 0', 'copy zero');
    const md = htmlToMarkdown(page(`<ul class="grid">${cards}${clone}</ul>`), URL);
    assert.doesNotMatch(md, /copy zero/);
  });

  it('leaves aria-hidden text hidden outside a product grid', () => {
    const md = htmlToMarkdown(
      `<!doctype html><html><head><title>Lamps</title></head><body><article><h1>Lamps</h1>
      <p>Our lamps are made by hand in a small workshop by the river, where brass has been turned and polished for three generations of the same family.</p>
      <p>Each shade is sewn from linen woven on the old looms <span aria-hidden="true">DECORATIVE</span> of the valley.</p></article></body></html>`,
      URL,
    );
    assert.match(md, /old looms/);
    assert.doesNotMatch(md, /DECORATIVE/);
  });
});
