/**
 * Named boilerplate (discard.ts) and the parts of a listing's items: a results page's cards
 * each wrap their description in a block the template names for the card's buy button or
 * its metadata. Such a name recurring on a page of items that together hold most of the
 * text is the items' own part, not boilerplate beside the text. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/cameras';

const card = (i: number) => `<li class="product"><h2><a href="/p/${i}">Camera model ${i}</a></h2>
  <div class="description cartButton"><ul><li>Sensor of ${20 + i} megapixels for sharp pictures.</li>
  <li>Fast autofocus for every scene ${i}.</li></ul></div></li>`;

const page = (
  cards: number,
) => `<!doctype html><html><head><title>Cameras | Example Shop</title></head>
  <body><header><a href="/">Example Shop</a></header>
  <main><h1>Cameras</h1><ul class="results">${Array.from({ length: cards }, (_, i) => card(i)).join('')}</ul></main>
  <footer><p>FOOTERTEXT Example Shop.</p></footer></body></html>`;

describe('recurring item parts named like boilerplate', () => {
  it("keeps each card's description on a results page whose cards name it as their button", () => {
    const md = htmlToMarkdown(page(24), URL);
    for (let i = 0; i < 24; i++) {
      assert.match(md, new RegExp(`Sensor of ${20 + i} megapixels`));
      assert.match(md, new RegExp(`Camera model ${i}\\]`));
    }
  });

  it('still drops such a named block when only a handful of cards carry it', () => {
    const md = htmlToMarkdown(page(6), URL);
    assert.doesNotMatch(md, /megapixels/);
  });
});
