/**
 * A region that is a list (region-items.ts): when the items of its lists, titled by links
 * to other pages, hold most of the page's `<main>`, the region is the content as soon as it
 * holds a quarter more than the extraction kept, and the items' parts named like
 * boilerplate (`title-metadata`, `ratings-container`) stay. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://films.example/chart';

const frame = (main: string) => `<!doctype html><html><head>
  <title>Most watched films | Films Example</title></head><body>
  <header><a href="/">Films Example</a> <a href="/login">Sign in</a></header>
  <main>${main}</main>
  <footer><p>FOOTERTEXT Films Example, all rights reserved.</p></footer></body></html>`;

const chart = (heading: (i: number) => string) =>
  Array.from(
    { length: 12 },
    (_, i) => `<li class="chart-item">${heading(i)}
      <div class="title-metadata"><span>${2000 + i}</span> <span>1h ${10 + i}m</span></div>
      <div class="ratings-container">${(5 + i / 10).toFixed(1)} (${i + 3}K votes)</div></li>`,
  ).join('');

describe('a region that is a list', () => {
  it("keeps each item's metadata and ratings named like boilerplate", () => {
    const md = htmlToMarkdown(
      frame(
        `<h1>Most watched films</h1><ul class="chart">${chart(
          (i) => `<a href="/title/${i}"><h3>${i + 1}. The film number ${i}</h3></a>`,
        )}</ul>`,
      ),
      URL,
    );
    for (let i = 0; i < 12; i++) {
      assert.match(md, new RegExp(`The film number ${i}\\b`));
      assert.match(md, new RegExp(`1h ${10 + i}m`));
      assert.match(md, new RegExp(`\\(${i + 3}K votes\\)`));
    }
    assert.doesNotMatch(md, /FOOTERTEXT/);
  });

  it('judges the named parts of blocks headed by links within the page as on any page', () => {
    const md = htmlToMarkdown(
      frame(
        `<h1>Most watched films</h1><ul class="chart">${chart(
          (i) => `<h3><a href="#entry-${i}">${i + 1}. The film number ${i}</a></h3>`,
        )}</ul>`,
      ),
      URL,
    );
    assert.match(md, /The film number 0\b/);
    assert.doesNotMatch(md, /\(3K votes\)/);
  });
});
