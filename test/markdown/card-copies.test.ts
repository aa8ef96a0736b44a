/**
 * A product card's second copies of its own lines (card-copies.ts): a theme that writes
 * the title over the picture and under it, the price as the regular and the sale figure,
 * shows each once; a line said once stays, and a price split over elements keeps its
 * parts. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/kettles';

const card = (i: number) => `<li class="card">
  <div class="card__inner"><img src="/k${i}.jpg" alt=""><h3><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h3></div>
  <div class="card__content"><h3><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h3>
  <p class="vendor">Made in the valley workshop ${i}</p>
  <div class="price"><span class="regular">$${30 + i}.00</span><span class="sale">$${30 + i}.00</span></div>
  <div class="unit">$<b>${i}${i}</b>.50 / litre, $<b>${i}${i}</b>.50 less in sale</div></div></li>`;

const page = (cards: string) => `<!doctype html><html><head><title>Kettles</title></head><body>
  <nav><a href="/">Shop Example</a></nav>
  <main><h1>Kettles</h1><ul class="grid">${cards}</ul></main>
  <footer><p>Shop Example, all rights reserved.</p></footer></body></html>`;

const count = (md: string, s: string) => md.split(s).length - 1;

describe("a product card's copies of its lines", () => {
  const md = htmlToMarkdown(page(Array.from({ length: 8 }, (_, i) => card(i)).join('')), URL);

  it('shows the title and the price of each card once', () => {
    for (let i = 0; i < 8; i++) {
      assert.equal(count(md, `Copper kettle number ${i}]`), 1, `title ${i}`);
      assert.equal(count(md, `$${30 + i}.00`), 1, `price ${i}`);
    }
  });

  it('keeps the lines said once and the parts of a split line', () => {
    assert.match(md, /Made in the valley workshop 7/);
    assert.equal(count(md, '$**55**.50'), 2);
  });
});
