/**
 * Structured pages (issue 28, point 1): where the content is many sibling blocks (a listing's
 * items, a product's description, specifications and reviews, a manual's sections), the
 * Readability-style scorer keeps the best block; the page's region (page-region.ts: its
 * <main>) is taken when it holds several times that, unless the page says it is an article.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/page';

const frame = (title: string, main: string) => `<!doctype html><html><head>
  <title>${title} | Example Shop</title></head><body>
  <header><a href="/">Example Shop</a> <a href="/cart">Cart</a></header>
  <nav><a href="/women">Women</a> <a href="/men">Men</a></nav>
  <main>${main}</main>
  <footer><p>FOOTERTEXT Example Shop, all rights reserved.</p></footer></body></html>`;

const ITEMS = Array.from(
  { length: 12 },
  (_, i) => `<div class="card"><h3><a href="/p/${i}">Walking boot model ${i}</a></h3>
    <p>Leather upper, rubber sole ${i}.</p><span class="price">€${90 + i},00</span></div>`,
).join('');

describe('the region of a structured page', () => {
  it('keeps every item of a listing with its title, snippet and price', () => {
    const md = htmlToMarkdown(
      frame(
        'Walking boots',
        `<h1>Walking boots</h1><p>Our walking boots are made for long days on rough ground, in every season, and we test each model on the hills before it is sold here.</p><div class="grid">${ITEMS}</div>`,
      ),
      URL,
    );
    assert.match(md, /^# Walking boots\n/);
    for (let i = 0; i < 12; i++) {
      assert.match(md, new RegExp(`Walking boot model ${i}\\]\\(https://shop.example/p/${i}\\)`));
      assert.match(md, new RegExp(`€${90 + i},00`));
    }
    assert.doesNotMatch(md, /FOOTERTEXT|Cart|\[Women\]/);
  });

  it("keeps a product's price, description, specifications and reviews", () => {
    const md = htmlToMarkdown(
      frame(
        'Trail boot',
        `<h1>Trail boot</h1><div class="buy"><span class="price">€129,00</span></div>
        <div class="description"><p>A light boot for long trails, with a waterproof lining and a grippy sole.</p></div>
        <table class="specs"><tr><th>Weight</th><td>540 g</td></tr><tr><th>Upper</th><td>Nubuck leather</td></tr><tr><th>Sole</th><td>Vibram rubber</td></tr></table>
        <div class="reviews"><div class="review"><b>Anna</b> <time>2025-03-02</time><p>Comfortable from the first day, dry feet in the rain.</p></div>
        <div class="review"><b>Ben</b> <time>2025-04-11</time><p>Good grip on wet rock, a bit narrow at the toes.</p></div>
        <div class="review"><b>Chloé</b> <time>2025-05-20</time><p>Third pair I own, they last for years of walking.</p></div></div>`,
      ),
      URL,
    );
    assert.match(md, /^# Trail boot\n/);
    for (const text of [
      '€129,00',
      'A light boot for long trails',
      'Nubuck leather',
      'Vibram rubber',
      'Comfortable from the first day',
      'Good grip on wet rock',
      'Third pair I own',
    ]) {
      assert.ok(md.includes(text), `${text} in\n${md}`);
    }
    assert.doesNotMatch(md, /FOOTERTEXT|Cart/);
  });

  it('keeps every section of a manual page that sits in its main beside a layout table', () => {
    const sections = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS', 'EXAMPLES']
      .map(
        (h, i) => `<h2>${h}</h2><pre>
       widget-${i} [OPTION]... PATTERN [FILE]...
       Section ${i} of the manual: the widget reads each FILE and
       prints what matches, one line per match.
</pre>`,
      )
      .join('');
    const md = htmlToMarkdown(
      `<!doctype html><html><head><title>widget(1) - manual page</title></head><body>
      <main><table class="head"><tr><td><p>This rendering of the manual was made by the maintainers of the site, who also teach courses on systems programming; details of the courses and of the hosting are on the site's other pages.</p></td><td><a href="/book"><img src="/cover.png" alt="Cover"></a></td></tr></table>
      <h1>widget(1) - manual page</h1>${sections}</main>
      <footer><p>FOOTERTEXT pages that refer to this page: other(1)</p></footer></body></html>`,
      'http://127.0.0.1/man/widget.1.html',
    );
    assert.match(md, /^# widget\(1\) - manual page\n/);
    for (let i = 0; i < 6; i++) assert.match(md, new RegExp(`widget-${i} \\[OPTION\\]`));
    assert.match(md, /## EXIT STATUS\n\n```\n/);
    assert.doesNotMatch(md, /FOOTERTEXT/);
  });

  it('takes the whole main of a page of many short posts, unless the page says it is an article (og:type)', () => {
    const comments = Array.from(
      { length: 12 },
      (_, i) => `<li><b>reader${i}</b> COMMENT ${i}: agreed, <a href="/r/${i}">reply</a></li>`,
    ).join('');
    const prose = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${i} of the story, with commas, clauses, and enough words to read like prose; the council met on Tuesday and agreed on the bridge.</p>`,
    ).join('');
    const html = (og: string) =>
      `<!doctype html><html><head><title>The bridge</title>${og}</head><body>
      <main><div class="story"><h1>The bridge</h1>${prose}</div><section class="replies"><ul>${comments}${comments}${comments}</ul></section></main></body></html>`;
    assert.doesNotMatch(
      htmlToMarkdown(html('<meta property="og:type" content="article">'), URL),
      /COMMENT/,
    );
    assert.match(htmlToMarkdown(html(''), URL), /COMMENT 11/);
  });

  it('leaves an article with a teaser grid beside it to the extraction', () => {
    const prose = Array.from(
      { length: 8 },
      (_, i) =>
        `<p>Paragraph ${i} of the story, with commas, clauses, and enough words to read like prose; the council met and agreed on the bridge.</p>`,
    ).join('');
    const md = htmlToMarkdown(
      frame(
        'The bridge',
        `<article><h1>The bridge</h1>${prose}</article><div class="more">${ITEMS.slice(0, 400)}</div>`,
      ),
      URL,
    );
    assert.match(md, /Paragraph 7 of the story/);
    assert.doesNotMatch(md, /Walking boot model/);
  });
});
