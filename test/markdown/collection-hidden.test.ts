/**
 * A collection page's class-hidden blocks (collection-hidden.ts): beside its product grid
 * a category page hides a comparison drawer holding a copy of every product; it goes, while
 * the same block stays when a breakpoint class shows it again. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/kettles';

const card = (i: number) => `<li class="card">
  <h3><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h3>
  <span class="price">$${30 + i}.00</span></li>`;

const compared = (i: number) => `<div class="compare-card">
  <h4>Copper kettle number ${i}</h4><span class="price">$${30 + i}.00</span>
  <p>Hammered by hand from a single sheet of copper, kettle ${i} boils a litre of water in four minutes on any hob and keeps its shine for decades with a little care.</p></div>`;

const page = (extra: string) => `<!doctype html><html><head><title>Kettles</title></head><body>
  <nav><a href="/">Shop Example</a></nav>
  <main><h1>Kettles</h1>
  <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>
  ${extra}</main>
  <footer><p>Shop Example, all rights reserved.</p></footer></body></html>`;

describe("a collection page's class-hidden blocks", () => {
  it('drops a hidden comparison drawer that copies the products', () => {
    const drawer = `<div class="compare-drawer hidden">${Array.from({ length: 8 }, (_, i) => compared(i)).join('')}</div>`;
    const md = htmlToMarkdown(page(drawer), URL);
    assert.match(md, /Copper kettle number 7/);
    assert.doesNotMatch(md, /Hammered by hand/);
  });

  it('keeps the same block when a breakpoint class shows it again', () => {
    const shown = `<div class="compare-drawer hidden md:block">${Array.from({ length: 8 }, (_, i) => compared(i)).join('')}</div>`;
    const md = htmlToMarkdown(page(shown), URL);
    assert.match(md, /Hammered by hand/);
  });
});
