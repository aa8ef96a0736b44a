/**
 * Listings and collections (issue 28, point 2): a page whose content is many sibling blocks
 * of one shape, each with a link and a title (item-list.ts). The scorer keeps one item's
 * text; the list whole is the content. Pages written for the test, with no `<main>`, so
 * that the page's region (page-region.ts) does not apply.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://listing.example/search';

const frame = (title: string, content: string) => `<!doctype html><html><head>
  <title>${title} | Example</title></head><body>
  <div class="top"><a href="/">Example</a> <a href="/login">Sign in</a></div>
  <div class="page">${content}</div>
  <div class="bottom"><p>FOOTERTEXT Example, all rights reserved.</p></div></body></html>`;

const LONG =
  'This flat has been renovated from floor to ceiling last spring, with a new kitchen, oak floors in every room, double glazing on the street side and a bathroom with a window; the landlord lives in the building and answers within the day.';

const item = (i: number, snippet: string) => `<div class="result">
  <h2><a href="/flat/${i}">Two-room flat number ${i} near the river</a></h2>
  <p>${snippet}</p><span class="rent">${800 + i} € a month</span></div>`;

describe('the list of items of a listing page', () => {
  it('keeps every item with its title, link, snippet and price when the scorer took one', () => {
    // the featured item's three paragraphs are the page's longest text: the scorer's choice
    const featured = `${LONG}</p><p>${LONG}</p><p>${LONG}`;
    const items = Array.from({ length: 12 }, (_, i) =>
      item(i, i === 3 ? featured : `Bright, quiet, second floor, item ${i}.`),
    ).join('');
    const md = htmlToMarkdown(
      frame('Flats to rent', `<h1>Flats to rent</h1><div class="results">${items}</div>`),
      URL,
    );
    for (let i = 0; i < 12; i++) {
      assert.match(md, new RegExp(`\\[Two-room flat number ${i} near the river\\]`));
      assert.match(md, new RegExp(`\\(https://listing.example/flat/${i}\\)`));
      assert.match(md, new RegExp(`${800 + i} € a month`));
    }
    assert.match(md, /item 11\./);
    assert.doesNotMatch(md, /FOOTERTEXT|Sign in/);
  });

  it('leaves an article whose list of teasers below it is another thing', () => {
    const story = Array.from(
      { length: 6 },
      (_, i) => `<p>${LONG.replace('This flat', `The flat of chapter ${i}`)}</p>`,
    ).join('');
    const teasers = Array.from({ length: 30 }, (_, i) =>
      item(i, `Bright, quiet, second floor, with a balcony to the yard, teaser ${i}.`),
    ).join('');
    const md = htmlToMarkdown(
      frame(
        'A flat story',
        `<div class="story"><h1>A flat story</h1>${story}</div><div class="more">${teasers}</div>`,
      ),
      URL,
    );
    assert.match(md, /The flat of chapter 5/);
    assert.doesNotMatch(md, /teaser \d+/);
  });
});
