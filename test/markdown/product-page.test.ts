/**
 * Product pages (product-page.ts): a page that says it is a product (schema.org Product in
 * JSON-LD or microdata, og:type product) keeps its description and drops the reviews and "you may also like" row its template sets in the
 * same container. A page without that markup keeps such blocks as before. Pages written for
 * the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { isProductPage } from '../../src/markdown/product-page.js';

const URL = 'https://shop.example.com/p/kettle-42';

const review = (n: number) =>
  `<div class="review-card"><span class="review-name">Buyer ${n}</span>
    <p>Review ${n}: the kettle boils quickly and quietly, the handle stays cool, and after three months of daily use it still looks new on our counter.</p></div>`;

const description = `<p>A stainless steel kettle that boils a litre in under three minutes, with a
  concealed element, a limescale filter you can take out and wash, and a base that turns all
  the way round so the cord never gets in the way.</p>
  <p>The double wall keeps the outside cool to the touch, and the lid opens with one press of
  a button on the handle, so you can fill it with one hand.</p>`;

const page = (
  head: string,
  attrs = '',
) => `<!doctype html><html><head><title>Kettle 42</title>${head}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/kettles">Kettles</a></nav></header>
  <div class="product"${attrs}>
    <h1>Kettle 42</h1><p class="price">€49.00</p>
    <div class="description">${description}</div>
    <table><tr><th>Capacity</th><td>1.7 l</td></tr><tr><th>Power</th><td>2200 W</td></tr></table>
    <section id="product-reviews"><h2>Reviews</h2>${[1, 2, 3, 4, 5, 6].map(review).join('')}</section>
    <div class="recommendations-row"><h2>You may also like</h2>
      <p>Toaster 7: a four-slot toaster in the same brushed steel, with a defrost setting and a crumb tray that slides out from the front.</p></div>
  </div>
  <footer><p>Shop Ltd</p></footer></body></html>`;

const jsonLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle 42","offers":{"@type":"Offer","price":"49.00","priceCurrency":"EUR"}}</script>`;

describe('product pages', () => {
  it('drops the reviews and recommendations of a page with schema.org Product in JSON-LD', () => {
    const md = htmlToMarkdown(page(jsonLd), URL);
    assert.match(md, /^# Kettle 42$/m);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /Review \d/);
    assert.doesNotMatch(md, /Toaster 7/);
  });

  it('drops them on a page that says product by microdata or og:type', () => {
    const microdata = htmlToMarkdown(
      page('', ' itemscope itemtype="https://schema.org/Product"'),
      URL,
    );
    const og = htmlToMarkdown(page('<meta property="og:type" content="product">'), URL);
    for (const md of [microdata, og]) {
      assert.match(md, /limescale filter/);
      assert.doesNotMatch(md, /Review \d/);
    }
  });

  it('drops a block named so in its data-name (a template naming its sections)', () => {
    const html = page(jsonLd).replace(
      '<section id="product-reviews">',
      '<div data-name="Reviews"><p>Customers say: REVIEWSUMMARY the kettle is quiet, quick and easy to clean, though some found the lid stiff at first.</p></div><section id="product-reviews">',
    );
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /REVIEWSUMMARY/);
  });

  it('keeps such blocks on a page that does not say it is a product', () => {
    const md = htmlToMarkdown(page(''), URL);
    assert.match(md, /limescale filter/);
    assert.match(md, /Review \d/);
  });

  it('recognises Product in a JSON-LD @type list and not an Offer alone', () => {
    const root = parseDocument('<html><head></head><body></body></html>').root;
    assert.equal(isProductPage(root, ['{"@type":["Thing","Product"],"name":"x"}']), true);
    assert.equal(isProductPage(root, ['{"@type":"Offer","price":"1"}']), false);
  });
});
