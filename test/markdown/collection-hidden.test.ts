/**
 * A collection page's class-hidden blocks (collection-hidden.ts): beside its product grid
 * a category page hides a comparison drawer holding a copy of every product; it goes, while
 * a hidden "read more" text stays, and so does the drawer when a breakpoint class shows it
 * again. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/collections/kettles';

// the teaser makes a card outweigh its copy in the drawer, so the grid shown is the best one
const card = (i: number, teaser: boolean) => `<li class="card">
  <h3><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h3>
  <span class="price">$${30 + i}.00</span>
  ${teaser ? `<p class="teaser">A round-bellied kettle for the stove, its copper left bright or oiled dark as you choose, its handle wrapped in cane cut on the river bank, number ${i} of the series.</p>` : ''}</li>`;

const compared = (i: number) => `<div class="compare-card">
  <h4><a href="/products/kettle-${i}">Copper kettle number ${i}</a></h4><span class="price">$${30 + i}.00</span>
  <p>Hammered by hand from a single sheet of copper, kettle ${i} boils a litre of water in four minutes on any hob and keeps its shine for decades with a little care.</p></div>`;

const page = (
  extra: string,
  intro = '',
  teaser = true,
) => `<!doctype html><html><head><title>Kettles</title></head><body>
  <nav><a href="/">Shop Example</a></nav>
  <main><div class="intro"><h1>Kettles</h1>${intro}</div>
  <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i, teaser)).join('')}</ul>
  ${extra}</main>
  <footer><p>Shop Example, all rights reserved.</p></footer></body></html>`;

describe("a collection page's class-hidden blocks", () => {
  it('drops a hidden comparison drawer that copies the products', () => {
    const drawer = `<div class="compare-drawer hidden">${Array.from({ length: 8 }, (_, i) => compared(i)).join('')}</div>`;
    const md = htmlToMarkdown(page(drawer), URL);
    assert.match(md, /Copper kettle number 7/);
    assert.doesNotMatch(md, /Hammered by hand/);
  });

  it('keeps a hidden "read more" text of prose that holds no products', () => {
    const intro = `<p>Kettles hammered by hand in our workshop.</p><div class="guide-more hidden"><p>Copper kettles heat evenly because the metal spreads the flame's heat across the whole base, so the water boils sooner and the kettle lasts for generations.</p></div>`;
    const md = htmlToMarkdown(page('', intro, false), URL);
    assert.match(md, /spreads the flame's heat/);
  });

  it('keeps the same block when a breakpoint class shows it again', () => {
    const shown = `<div class="compare-drawer hidden md:block">${Array.from({ length: 8 }, (_, i) => compared(i)).join('')}</div>`;
    const md = htmlToMarkdown(page(shown), URL);
    assert.match(md, /Hammered by hand/);
  });
});
