/**
 * Repeated blocks (repeated-blocks.ts): a product page whose template writes the description
 * and the buy box once for wide and once for narrow screens says each once in its Markdown.
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

const count = (md: string, text: string) => md.split(text).length - 1;

describe('repeated blocks', () => {
  it('says the description of a product page once when its template writes it twice', () => {
    const md = htmlToMarkdown(page(jsonLd), URL);
    assert.equal(count(md, 'wheel-thrown stoneware mug'), 1);
    assert.equal(count(md, 'safe in dishwashers'), 1);
    assert.match(md, /^# Mug 7$/m);
  });
});
