/**
 * A product page's price lists (price-lists.ts): a price box holding a list of prices (a
 * currency switcher's, a bulk discount's) goes; a price box with the price alone stays.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/hemp-dress';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Hemp Dress"}</script>';

const page = (price: string) => `<!doctype html><html><head>
  <title>Hemp Dress</title>${product}</head><body>
  <div class="product"><h1>Hemp Dress</h1>${price}
  <p>A strappy dress of three flowing layers with a side zip and a pocket on the right side,
  cut from pure hemp, dyed without azo dyes and made to order in a small workshop.</p>
  <p>The hemp softens with every wash and keeps cool in summer; dry clean only, do not bleach,
  and allow eight to fourteen days for the dress to be made and shipped.</p></div>
  </body></html>`;

describe('price lists on a product page', () => {
  it('drops a price box that lists converted prices', () => {
    const md = htmlToMarkdown(
      page(`<div class="price"><span class="amount">€132.34</span><div class="price_info">
      <ul class="price_info_list"><li><b>AED</b>: 549.56</li><li><b>GBP</b>: 110.82</li>
      <li><b>USD</b>: 149.64</li></ul></div></div>`),
      URL,
    );
    assert.doesNotMatch(md, /AED|GBP|132\.34/);
    assert.match(md, /strappy dress/);
  });

  it('keeps a price box with the price alone', () => {
    const md = htmlToMarkdown(page('<p class="product-price">€132.34</p>'), URL);
    assert.match(md, /132\.34/);
  });
});
