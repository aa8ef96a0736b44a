/**
 * A product card's buttons (card-buttons.ts): a link or a box a theme styles as a button
 * ("add to cart", "quick view") goes from each card of a collection's grid, while a card's
 * text styled by a class that merely contains the word stays. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/kettles';

const card = (i: number) => `<li class="card">
  <a class="image" href="/products/kettle-${i}"><img src="/k${i}.jpg" alt=""><div class="btn btn-quickview">Peek inside</div></a>
  <h3><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h3>
  <span class="price">$${30 + i}.00</span>
  <p class="buttonhole-note">Its handle is wrapped in cane from the valley ${i}</p>
  <a class="button add_to_cart_button" href="/cart?add=${i}" rel="nofollow">Put in basket</a></li>`;

const page = `<!doctype html><html><head><title>Kettles</title></head><body>
  <nav><a href="/">Shop Example</a></nav>
  <main><h1>Kettles</h1><ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></main>
  <footer><p>Shop Example, all rights reserved.</p></footer></body></html>`;

describe("a product card's buttons", () => {
  const md = htmlToMarkdown(page, URL);

  it('drops the button-styled controls of each card', () => {
    assert.match(md, /Copper kettle number 7/);
    assert.doesNotMatch(md, /Peek inside/);
    assert.doesNotMatch(md, /Put in basket/);
  });

  it("keeps a card's text whose class only contains the word", () => {
    assert.match(md, /wrapped in cane from the valley 7/);
  });
});
