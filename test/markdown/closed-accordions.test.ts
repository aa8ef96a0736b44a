/**
 * A product page's accordion marked by class alone (closed-accordions.ts): sibling items whose
 * title and panel carry a state class when open (`active`) and the same classes without it
 * when collapsed. With two or more items open, the collapsed ones go; with one open (a tab
 * set's shape) they stay, and so they do on a page that is not a product. Pages written for
 * the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/tee-7';

const jsonLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Tee 7"}</script>`;

const item = (open: boolean, title: string, text: string) => `<div class="acc-item">
  <div class="acc-title${open ? ' active' : ''}">${title}</div>
  <div class="acc-panel${open ? ' active' : ''}"><p>${text}</p></div></div>`;

const description = `A mid weight tee in combed cotton with a ribbed neck, side seams and
  double needle hems, cut to a regular fit that keeps its shape wash after wash.`;
const fabric = `Five ounce, twenty-eight singles, one hundred percent combed cotton, preshrunk so
  that it keeps its length, with heathers blended with a little viscose.`;
const shipping = `Orders leave our warehouse within two working days and returns are free within
  thirty days for unworn garments sent back in their original packaging.`;

const page = (head: string, detailsOpen: boolean) => `<!doctype html><html><head>
  <title>Tee 7</title>${head}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/tees">Tees</a></nav></header>
  <main><div class="product"><h1>Tee 7</h1><p class="price">$20.00</p>
    <div class="accordion">
      ${item(true, 'Description', description)}
      ${item(detailsOpen, 'Fabric', fabric)}
      ${item(false, 'Shipping and returns', shipping)}
    </div></div></main>
  <footer><p>Shop Ltd</p></footer></body></html>`;

describe('class-marked accordions', () => {
  it('drops the collapsed items when several are open on a product page', () => {
    const md = htmlToMarkdown(page(jsonLd, true), URL);
    assert.match(md, /ribbed neck/);
    assert.match(md, /twenty-eight singles/);
    assert.doesNotMatch(md, /original packaging/);
    assert.doesNotMatch(md, /Shipping and returns/);
  });

  it('keeps them when only one is open, as a tab set shows one panel', () => {
    const md = htmlToMarkdown(page(jsonLd, false), URL);
    assert.match(md, /twenty-eight singles/);
    assert.match(md, /original packaging/);
  });

  it('keeps them on a page that is not a product', () => {
    const md = htmlToMarkdown(page('', true), URL);
    assert.match(md, /original packaging/);
  });
});
