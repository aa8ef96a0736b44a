/**
 * Repeated tables (repeated-tables.ts): a product page whose theme prints its spec table
 * under "Description" and again under "Specifications", a label reworded, keeps the first;
 * a second table with other rows stays. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/kettle-3';

const rows = (pairs: string[][]) =>
  `<table>${pairs.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join('')}</table>`;

const specs = [
  ['Capacity', '1.7 l'],
  ['Power', '2200 W'],
  ['Material', 'Brushed steel'],
  ['Cord length', '75 cm'],
  ['Weight', '1.1 kg'],
];
const reworded = [
  ['Volume', '1.7 l'],
  ['Power', '2200 W'],
  ['Material', 'Brushed steel'],
  ['Cord length', '75 cm'],
  ['Weight', '1.1 kg'],
];
const other = [
  ['Box size', '25 x 20 x 18 cm'],
  ['Warranty', '2 years'],
  ['Made in', 'Portugal'],
  ['Colour', 'Silver'],
];

const page = (second: string) => `<!doctype html><html><head><title>Kettle 3</title>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle 3","offers":{"@type":"Offer","price":"49.00","priceCurrency":"EUR"}}</script>
  </head><body>
  <header><nav><a href="/">Shop</a> <a href="/kettles">Kettles</a></nav></header>
  <div class="product">
    <h1>Kettle 3</h1><p class="price">€49.00</p>
    <form class="add-to-cart"><button>Add to cart</button></form>
    <h2>Description</h2>
    <p>A quiet kettle in brushed steel that boils a full jug in under four minutes and
    switches itself off when the water boils or the jug is lifted from its base.</p>
    ${rows(specs)}
    <h2>Specifications</h2>
    ${second}
  </div>
  <footer><p>Shop Ltd</p></footer></body></html>`;

describe('repeated tables', () => {
  it('drops a later spec table whose cells repeat the earlier one', () => {
    const md = htmlToMarkdown(page(rows(reworded)), URL);
    assert.equal(md.match(/Cord length/g)?.length, 1, md);
    assert.doesNotMatch(md, /Volume/);
    assert.match(md, /Capacity/);
  });

  it('drops a later definition list whose terms and details repeat the table', () => {
    const list = `<dl>${reworded.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
    const md = htmlToMarkdown(page(list), URL);
    assert.equal(md.match(/Cord length/g)?.length, 1, md);
    assert.doesNotMatch(md, /Volume/);
  });

  it('keeps a later table with other rows', () => {
    const md = htmlToMarkdown(page(rows(other)), URL);
    assert.match(md, /Capacity/);
    assert.match(md, /Warranty/);
  });
});
