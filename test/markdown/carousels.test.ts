/**
 * Carousels on a product page (carousels.ts): a row that ARIA calls a carousel (other items
 * beside the product) goes. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/desk-lamp';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Desk Lamp"}</script>';

const slide = (i: number) => `<li aria-roledescription="slide"><span>SLIDETEXT Floor lamp ${i}
  with a linen shade and a brass stem, dimmable</span></li>`;

const page = (head: string) => `<!doctype html><html><head>
  <title>Desk Lamp</title>${head}</head><body>
  <div class="product"><h1>Desk Lamp</h1><p class="price">$89.00</p>
  <p>An adjustable desk lamp with a weighted steel base, a spring-balanced arm that stays where
  you leave it, and a warm LED that lights a whole desk without glare on the screen.</p>
  <p>The head turns all the way round, and a touch on the base sets one of four levels of
  light, from a reading lamp to a soft glow for the evening.</p>
  <div role="group" aria-roledescription="carousel" aria-label="Related items">
  <h2>CAROUSELHEAD Related items</h2><ul>${slide(1)}${slide(2)}${slide(3)}</ul></div>
  </div></body></html>`;

describe('carousels on a product page', () => {
  it('drops a row that ARIA calls a carousel, with its heading', () => {
    const md = htmlToMarkdown(page(product), URL);
    assert.doesNotMatch(md, /SLIDETEXT|CAROUSELHEAD/);
    assert.match(md, /spring-balanced arm/);
  });

  it('keeps the carousel on a page that is not a product', () => {
    const md = htmlToMarkdown(page(''), URL);
    assert.match(md, /SLIDETEXT/);
  });
});
