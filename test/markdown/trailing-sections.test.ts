/**
 * A product page's template sections after the product (trailing-sections.ts): below the
 * block that holds the product's name, its buy box and its description, the shop's own
 * headed sections (a photo wall, the brand's quality story) go, when the `<h1>` names the
 * page's schema.org Product; on a page that names no such product they stay. Pages written
 * for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/shelf-4';

const jsonLd = (name: string) =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${name}"}</script>`;

const paragraph = (n: number) =>
  `<p>Detail ${n}: the shelf unit is made of particleboard and fiberboard with an acrylic
  paint finish and a honeycomb filling of recycled paper, so it is light to carry and stiff
  enough to hold books on every shelf, standing upright or lying down as a sideboard.</p>`;

const page = (name: string) => `<!doctype html><html><head>
  <title>Shelf 4</title>${jsonLd(name)}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/storage">Storage</a></nav></header>
  <main><div class="content">
    <div class="product">
      <div class="buy"><h1>Shelf 4, white</h1><p class="price">$89.99</p></div>
      <div class="details"><h2>Product details</h2>
        ${[1, 2, 3, 4, 5, 6].map(paragraph).join('\n')}</div>
    </div>
    <div class="wall"><h2>Seen in our customers' homes</h2>
      <p>Share your photos with our tag for a chance to be featured on this page.</p></div>
    <div class="story"><h2>Made to last</h2>
      <p>Every piece we design is tested in our own laboratories for years of daily use.</p></div>
  </div></main>
  <footer><p>Shop Ltd</p></footer></body></html>`;

describe('template sections after the product', () => {
  it('drops the headed sections after the block holding the named product', () => {
    const md = htmlToMarkdown(page('Shelf 4 - white'), URL);
    assert.match(md, /honeycomb filling/);
    assert.doesNotMatch(md, /customers' homes/);
    assert.doesNotMatch(md, /own laboratories/);
  });

  it('keeps them when the heading names no product of the page', () => {
    const md = htmlToMarkdown(page('Lamp 9'), URL);
    assert.match(md, /honeycomb filling/);
    assert.match(md, /own laboratories/);
  });
});
