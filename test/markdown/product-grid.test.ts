/**
 * Collections (issue 28): a shop's grid of items, each a link with its name and price, is the
 * content. The items hold little prose, so the Readability-style scorer takes a block of
 * prose beside the grid; the grid (product-grid.ts) is taken instead. Pages written for the
 * test, without a `<main>` (page-region.ts would take that).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/socks';

const NOTICE = `Notice to consumers: the shop may collect identifiers, commercial information and network activity when you visit this website, and may use such information to draw inferences and for other operational and commercial purposes, as the law of the state allows, for as long as the account is open, and for the periods that the tax rules require after it is closed.`;

// the sign and the amount in elements of their own, as shop templates write them
const card = (i: number) => `<li class="product-card card-${i}">
  <a href="/products/sock-${i}"><img src="/img/${i}.jpg" alt=""></a>
  <h3><a href="/products/sock-${i}">Merino wool hiking sock model ${i} with cushioned sole</a></h3>
  <span class="price"><span class="sign">$</span>${10 + i}.50</span></li>`;

const page = (grid: string) => `<!doctype html><html><head><title>Socks</title></head><body>
  <div id="top"><a href="/">Shop Example</a></div>
  <div class="layout"><div class="notice"><p>${NOTICE}</p></div>
  <div class="collection"><h1>Socks</h1>${grid}</div></div>
  <div class="bottom"><p>BOTTOMTEXT Shop Example, all rights reserved.</p></div></body></html>`;

/** The page with a schema.org Product in its data: the featured item a category page names. */
const namingProduct = (grid: string) =>
  page(grid).replace(
    '</title>',
    '</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Merino wool hiking sock model 0"}</script>',
  );

/** A category's long text beside (not around) its grid, up to twice the grid's text. */
const SEO = `<div class="category-text"><p>${NOTICE}</p><p>Our socks are knitted from merino wool, which keeps feet warm in the cold and dry in the heat, and each pair is tested on long walks before it is sold in the shop.</p></div>`;

describe('the product grid of a collection', () => {
  it("keeps the grid over a category's text beside it that holds up to twice the grid's", () => {
    const cards = Array.from({ length: 8 }, (_, i) => card(i)).join('');
    const html = page(`<ul class="grid">${cards}</ul>`).replace(
      '<div class="bottom">',
      `${SEO}<div class="bottom">`,
    );
    const md = htmlToMarkdown(html, URL);
    for (let i = 0; i < 8; i++) assert.match(md, new RegExp(`sock model ${i} with`));
    assert.doesNotMatch(md, /knitted from merino/);
  });

  it('keeps the prose of content that holds the grid and more text than it', () => {
    // cards with a line of description each: the cleaning keeps them in the content
    const described = Array.from({ length: 8 }, (_, i) =>
      card(i).replace(
        '<span class="price">',
        '<p>Soft, warm and strong, with a reinforced heel and toe, for walks of every length.</p><span class="price">',
      ),
    ).join('');
    const html = `<!doctype html><html><head><title>Socks</title></head><body>
      <main><h1>Socks</h1><p>Warm socks for every walk, knitted in our own mill from the wool of sheep that graze the hills above it all year round.</p>
      <ul class="grid">${described}</ul>${SEO}</main></body></html>`;
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /Our socks are knitted from merino/);
    assert.match(md, /sock model 7 with/);
  });

  it('reads a page that names a Product but shows a grid of 16 cards as a collection', () => {
    const cards = Array.from({ length: 16 }, (_, i) => card(i)).join('');
    const md = htmlToMarkdown(namingProduct(`<ul class="grid">${cards}</ul>`), URL);
    for (let i = 0; i < 16; i++) assert.match(md, new RegExp(`sock model ${i} with`));
    assert.doesNotMatch(md, /Notice to consumers/);
  });

  it('keeps every item and price of the grid when the scorer took the prose beside it', () => {
    const cards = Array.from({ length: 16 }, (_, i) => card(i)).join('');
    const md = htmlToMarkdown(page(`<ul class="grid">${cards}</ul>`), URL);
    for (let i = 0; i < 16; i++) {
      assert.match(
        md,
        new RegExp(
          `\\[Merino wool hiking sock model ${i} with cushioned sole\\]\\(https://shop.example/products/sock-${i}\\)`,
        ),
      );
      assert.match(md, new RegExp(`\\$\\s*${10 + i}\\.50`));
    }
    assert.doesNotMatch(md, /Notice to consumers|BOTTOMTEXT/);
  });

  it('leaves an article alone beside a bar of offers that quote an amount', () => {
    const offer = (i: number) =>
      `<div class="promo-slide"><a href="/offers/${i}">Free standard shipping on orders $${40 + i}+ in region ${i}</a></div>`;
    const offers = Array.from({ length: 6 }, (_, i) => offer(i)).join('');
    const md = htmlToMarkdown(
      `<!doctype html><html><body><div class="promo">${offers}</div><div class="terms"><h1>Promo terms</h1><p>${NOTICE}</p><p>${NOTICE}</p></div></body></html>`,
      URL,
    );
    assert.match(md, /Notice to consumers/);
    assert.doesNotMatch(md, /Free standard shipping/);
  });
});
