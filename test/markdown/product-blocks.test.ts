/**
 * A product page's blocks as a reader sees them (product-blocks.ts) and what goes beside
 * the product (product-page.ts, issue 28): collapsed panels open, blocks hidden by a utility
 * class go, the rows of other products under the product go, a page with
 * one buy form is a product page, and the schema.org description stands in for a script's
 * shell. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { isProductPage } from '../../src/markdown/product-page.js';

const URL = 'https://shop.example.com/p/kettle-42';

const jsonLd = (description = '') =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle 42"${
    description ? `,"description":"${description}"` : ''
  }}</script>`;

const description = `<p>A stainless steel kettle that boils a litre in under three minutes, with a
  concealed element, a limescale filter you can take out and wash, and a base that turns all
  the way round so the cord never gets in the way.</p>
  <p>The double wall keeps the outside cool to the touch, and the lid opens with one press of
  a button on the handle, so you can fill it with one hand.</p>`;

// `inside`: blocks in the description's container, where shops set the specifications;
// `after`: blocks under it in the product's container
const page = (head: string, inside: string, after = '') => `<!doctype html><html><head>
  <title>Kettle 42</title>${head}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/kettles">Kettles</a></nav></header>
  <div class="product"><h1>Kettle 42</h1><p class="price">€49.00</p>
    <div class="description">${description}${inside}</div>${after}</div>
  <footer><p>Shop Ltd</p></footer></body></html>`;

const card = (
  i: number,
) => `<div class="card"><a href="/p/toaster-${i}"><img src="/t${i}.jpg" alt=""></a>
  <p><a href="/p/toaster-${i}">Toaster model ${i}</a> in brushed steel, four slots</p>
  <span class="price">€${20 + i}.00</span></div>`;

describe('a product page as a reader sees it', () => {
  it('opens the specifications a toggle names in aria-controls', () => {
    const panel = `<h2><button aria-controls="specs" aria-expanded="false">Specifications</button></h2>
      <div id="specs" role="region" aria-hidden="true" style="display:none"><dl>
      <dt>Capacity</dt><dd>SPECCAPACITY 1.7 l</dd><dt>Power</dt><dd>2200 W</dd></dl></div>
      <div id="other" hidden><p>HIDDENNOTE a block no toggle names</p></div>`;
    const md = htmlToMarkdown(page(jsonLd(), panel), URL);
    assert.match(md, /SPECCAPACITY 1\.7 l/);
    assert.doesNotMatch(md, /HIDDENNOTE/);
  });

  it('drops blocks hidden by a utility class, unless shown at some width or prose', () => {
    const blocks = `<dl class="product-info hide"><dt>cat_thumb_red:</dt><dd>RAWFIELD https://cdn.example/red.jpg</dd></dl>
      <div class="hidden md:block"><p>WIDEONLY shipping within two days.</p></div>
      <div class="more hidden"><p>READMORE The kettle was designed in our workshop over two
      years, tested by a hundred households and changed eleven times before it reached the
      shelves, each change a reply to what the testers told us about it.</p></div>`;
    const md = htmlToMarkdown(page(jsonLd(), blocks), URL);
    assert.doesNotMatch(md, /RAWFIELD/);
    assert.match(md, /WIDEONLY/);
    assert.match(md, /READMORE/);
  });

  it('drops the buy box around the cart button, not the description beside it', () => {
    const box = `<div class="buy"><div class="stock">STOCKNOTE Only a few left, order soon</div>
      <div class="ship">Free delivery on orders over €75</div>
      <button class="add-to-cart">Add to cart</button></div>`;
    const md = htmlToMarkdown(page(jsonLd(), box), URL);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /STOCKNOTE|Free delivery/);
  });

  it('sets a label apart from its value and drops text that is only a machine id', () => {
    const spec = `<div class="spec"><span class="spec__label">Weight</span><span class="spec__value">1200 g</span></div>
      <div class="tags"><span>S</span><span class="x">7868484a-db29-4baf-990e-8b645ccb1899</span></div>`;
    const md = htmlToMarkdown(page(jsonLd(), spec), URL);
    assert.match(md, /Weight 1200 g/);
    assert.doesNotMatch(md, /7868484a/);
  });
});

describe('beside the product', () => {
  it('drops a row of other products with its heading', () => {
    const cards = Array.from({ length: 6 }, (_, i) => card(i)).join('');
    const after = `<section class="row"><h2>ROWHEADING You may also like</h2><div class="grid">${cards}</div></section>`;
    const md = htmlToMarkdown(page(jsonLd(), '', after), URL);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /Toaster model|ROWHEADING/);
  });

  it('drops what the product page sets above the product name, not what follows it', () => {
    const html = `<!doctype html><html><head><title>Kettle 42</title>${jsonLd()}</head><body>
      <div class="product"><p class="promo">PROMOBANNER 20% off every kettle this week with the code SPRING, in the shop and online</p>
      <h1>Kettle 42</h1><div class="description">${description}</div></div></body></html>`;
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /^# Kettle 42$/m);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /PROMOBANNER/);
  });

  it('takes a page with one buy form for a product page, not one with several or an article', () => {
    const form = (n: number) =>
      `<form action="/cart/add" method="post"><input type="hidden" name="id" value="${n}"><button>Buy</button></form>`;
    const one = parseDocument(page('', form(1))).root;
    const several = parseDocument(page('', form(1) + form(2) + form(3))).root;
    const article = parseDocument(
      page('<meta property="og:type" content="article">', form(1)),
    ).root;
    assert.equal(isProductPage(one, []), true);
    assert.equal(isProductPage(several, []), false);
    assert.equal(isProductPage(article, []), false);
  });

  it('reads a buy form by its name, or by an action adding to a cart, basket or bag path', () => {
    const byName = parseDocument(
      page('', '<form name="addToCart" action="/buy" method="post"><button>Buy</button></form>'),
    ).root;
    const byBasket = parseDocument(
      page(
        '',
        '<form name="AddItem" action="/v/checkout/basket/add_and_show" method="post"><button>Buy</button></form>',
      ),
    ).root;
    const search = parseDocument(
      page('', '<form name="keyword" action="/keyword.php"><input name="q"></form>'),
    ).root;
    assert.equal(isProductPage(byName, []), true);
    assert.equal(isProductPage(byBasket, []), true);
    assert.equal(isProductPage(search, []), false);
  });

  it("counts one buy form beside a row of other products' quick-add forms as one", () => {
    const form = (n: number) =>
      `<form action="/cart/add" method="post"><input type="hidden" name="id" value="${n}"><button>Buy</button></form>`;
    const quickAdd = (n: number) =>
      `<div class="card"><a href="/p/${n}">Mug ${n}</a>${form(n)}</div>`;
    const row = `<section><h2>Complete the set</h2><div>${[2, 3, 4].map(quickAdd).join('')}</div></section>`;
    const withRow = parseDocument(page('', `<div class="buy">${form(1)}</div>${row}`)).root;
    const twoOwn = parseDocument(page('', `<div>${form(1)}</div><div>${form(2)}</div>${row}`)).root;
    assert.equal(isProductPage(withRow, []), true);
    assert.equal(isProductPage(twoOwn, []), false);
  });

  it('gives the schema.org description when the markup is a script shell', () => {
    const text =
      'DESCRIBED These kettles are engineered for quiet mornings: a concealed element, a limescale filter you can wash and a base that turns all the way round.';
    const shell = `<!doctype html><html><head><title>Kettle 42</title>${jsonLd(text)}</head><body>
      <div id="app"><h1>Kettle 42</h1><p>Notice: this shop may collect identifiers and
      network activity when you visit this website, as the privacy policy says.</p></div></body></html>`;
    const md = htmlToMarkdown(shell, URL);
    assert.match(md, /^# Kettle 42$/m);
    assert.match(md, /DESCRIBED These kettles/);
    assert.doesNotMatch(md, /Notice: this shop/);
  });
});
