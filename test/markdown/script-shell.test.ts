/**
 * What a script's shell leaves when the extraction finds too little and the cleaned body is
 * used (issue 28: a shop's product page, its content in a script, came out as skip links,
 * an ad slot's title and a widget's heading): text hidden by a `visibility-hidden` class
 * (skip links, landmark labels), an AdSense box, and headings over nothing
 * (empty-sections.ts) are not content. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/item/1';

const shell = (inside: string) => `<!doctype html><html><head><title>Laptop</title></head><body>
  <div id="app">${inside}</div><script>window.mount()</script></body></html>`;

describe('a script shell', () => {
  it('drops skip links and labels hidden by a visibility-hidden class', () => {
    const md = htmlToMarkdown(
      shell(`<a class="visibility-hidden visibility-hidden-focusable" href="#main">Skip to content</a>
        <div class="visibility-hidden" id="main">Main Content</div><p>Short note.</p>`),
      URL,
    );
    assert.doesNotMatch(md, /Skip to content|Main Content/);
    assert.match(md, /Short note\./);
  });

  it('drops an AdSense box with its title', () => {
    const md = htmlToMarkdown(
      shell(`<div id="shop-adsense"><h3>Similar products elsewhere</h3><div class="slot"></div>
        <span>sponsored</span></div><p>Short note.</p>`),
      URL,
    );
    assert.doesNotMatch(md, /Similar products elsewhere|sponsored/);
  });

  it('drops a heading left over nothing, and one over only an image', () => {
    const md = htmlToMarkdown(
      shell(`<p>Short note.</p><h2>Highlights</h2><div><button>Fast processor</button></div>
        <h3>Gallery</h3><img src="/a.jpg" alt="">`),
      URL,
    );
    assert.doesNotMatch(md, /Highlights|Gallery/);
    assert.match(md, /Short note\./);
  });

  it('keeps a heading over text, and headings in a row of one rank', () => {
    const md = htmlToMarkdown(
      shell(`<h2>Opening hours</h2><h3>Weekdays</h3><h3>9 to 5</h3><p>Short note.</p>`),
      URL,
    );
    assert.match(md, /Opening hours/);
    assert.match(md, /Weekdays/);
  });
});
