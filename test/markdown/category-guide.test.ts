/**
 * A category's guide below its product grid (category-guide.ts): when the grid is the
 * content after its heading, the prose blocks after it in the block holding both go after
 * it; a row of related links does not, nor a page's foot with its copyright line. Pages
 * written for the test, without a `<main>`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/c/kettles';

const NOTICE = `Notice to consumers: the shop may collect identifiers, commercial information and network activity when you visit this website, and may use such information for operational purposes, as the law allows, for as long as the account is open.`;

const card = (i: number) => `<li class="product-card">
  <a href="/products/kettle-${i}"><img src="/img/${i}.jpg" alt=""></a>
  <h3><a href="/products/kettle-${i}">Stainless steel kettle model ${i} with a hidden element</a></h3>
  <span class="price">$${30 + i}.00</span></li>`;

const grid = `<ul class="products">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;

const GUIDE = `<div class="x1"><h2>How to choose a kettle</h2><p>GUIDETEXT Think of how much water you boil at once, how loud a kettle may be in the morning, and whether its handle stays cool.</p></div>`;
const SEARCHES = `<div class="x2"><h2>Related searches</h2><ul>${Array.from({ length: 6 }, (_, i) => `<li><a href="/s/${i}">Electric kettles of kind ${i}</a></li>`).join('')}</ul></div>`;
const FOOT = `<div class="x3"><p>FOOTTEXT 12 Mill Road, Springfield, open Monday to Saturday from nine to five. Copyright © 2024 Shop Example. All rights reserved.</p></div>`;

const page = `<!doctype html><html><head><title>Kettles</title></head><body>
  <div class="layout"><div class="notice"><p>${NOTICE}</p></div>
  <div class="collection-header"><h1>Kettles</h1><p>Kettles that boil fast.</p></div>
  <div class="collection">${grid}</div>${GUIDE}${SEARCHES}${FOOT}</div></body></html>`;

describe("a category's guide below its grid", () => {
  it('keeps the prose after the grid, after it, without related links or the foot', () => {
    const md = htmlToMarkdown(page, URL);
    assert.match(md, /kettle model 7/);
    assert.match(md, /GUIDETEXT/);
    assert.ok(md.indexOf('kettle model 7') < md.indexOf('GUIDETEXT'));
    assert.doesNotMatch(md, /Electric kettles of kind/);
    assert.doesNotMatch(md, /FOOTTEXT/);
  });
});
