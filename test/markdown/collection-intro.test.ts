/**
 * A collection's heading and intro (wider-content.ts introducedGrid): when the product grid
 * is the content, the page's `<h1>` block written apart from the grid, short and mostly not
 * links, goes before it; a breadcrumb trail around the `<h1>` does not. Pages written for
 * the test, without a `<main>`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/kettles';

const NOTICE = `Notice to consumers: the shop may collect identifiers, commercial information and network activity when you visit this website, and may use such information for operational purposes, as the law allows, for as long as the account is open.`;

const card = (i: number) => `<li class="product-card">
  <a href="/products/kettle-${i}"><img src="/img/${i}.jpg" alt=""></a>
  <h3><a href="/products/kettle-${i}">Stainless steel kettle model ${i} with a hidden element</a></h3>
  <span class="price">$${30 + i}.00</span></li>`;

const grid = `<ul class="products">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>`;

const page = (header: string) => `<!doctype html><html><head><title>Kettles</title></head><body>
  <div class="layout"><div class="notice"><p>${NOTICE}</p></div>
  <div class="collection-header">${header}</div>
  <div class="collection">${grid}</div></div></body></html>`;

describe('collection intro', () => {
  it('keeps the intro written under the h1 apart from the grid', () => {
    const md = htmlToMarkdown(
      page('<h1>Kettles</h1><p>INTROTEXT Kettles that boil fast and stay cool outside.</p>'),
      URL,
    );
    assert.match(md, /INTROTEXT/);
    assert.match(md, /kettle model 7/);
    assert.ok(md.indexOf('INTROTEXT') < md.indexOf('kettle model 0'));
  });

  it('leaves out a block of links around the h1 (a breadcrumb trail)', () => {
    const trail =
      '<p><a href="/">Home</a> / <a href="/kitchen">Kitchen appliances and more</a></p>';
    const md = htmlToMarkdown(page(`${trail}<h1>Kettles</h1>`), URL);
    assert.doesNotMatch(md, /Kitchen appliances/);
    assert.match(md, /kettle model 7/);
  });
});
