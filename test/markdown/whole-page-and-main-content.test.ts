import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMainContent, htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://example.com/news/story.html';
const PROSE =
  '<p>A paragraph of the story, with commas, clauses, and enough words to read like prose.</p>'.repeat(
    8,
  );
const PAGE = `<!doctype html><html><head><title>Story</title></head><body>
  <nav><a href="/home">NAVLINK home</a></nav>
  <header><p>HEADERTEXT the site</p></header>
  <main><article><h2>Story</h2>${PROSE}<p><img src="pic.png" alt="a pic"></p></article></main>
  <div hidden>HIDDENTEXT</div><p style="display: none">STYLEHIDDEN</p>
  <footer><p>FOOTERTEXT copyright</p></footer>
</body></html>`;

describe('htmlToMarkdown with mainContent: false', () => {
  it('keeps the navigation, header and footer that main-content extraction drops', () => {
    const main = htmlToMarkdown(PAGE, URL);
    const whole = htmlToMarkdown(PAGE, URL, { mainContent: false });
    assert.doesNotMatch(main, /NAVLINK|HEADERTEXT|FOOTERTEXT/);
    assert.match(whole, /\[NAVLINK home\]\(https:\/\/example\.com\/home\)/);
    assert.match(whole, /HEADERTEXT the site/);
    assert.match(whole, /FOOTERTEXT copyright/);
    assert.match(whole, /A paragraph of the story/);
  });

  it('still removes hidden elements', () => {
    const whole = htmlToMarkdown(PAGE, URL, { mainContent: false });
    assert.doesNotMatch(whole, /HIDDENTEXT|STYLEHIDDEN/);
  });

  it('leaves the default as it was: mainContent true is the same as no options', () => {
    assert.equal(htmlToMarkdown(PAGE, URL, { mainContent: true }), htmlToMarkdown(PAGE, URL));
  });
});

describe('extractMainContent', () => {
  it("gives htmlToMarkdown's Markdown and the same content as HTML, URLs as written", () => {
    const { html, markdown } = extractMainContent(PAGE, URL);
    assert.equal(markdown, htmlToMarkdown(PAGE, URL));
    assert.match(html, /<p>A paragraph of the story, with commas/);
    assert.match(html, /<img src="pic.png" alt="a pic">/);
    assert.doesNotMatch(html, /NAVLINK|FOOTERTEXT|HIDDENTEXT/);
  });

  it('escapes text and attribute values', () => {
    const { html } = extractMainContent(
      `<body><article>${PROSE}<p title='say "hi"'>a &lt;b&gt; &amp; c</p></article></body>`,
      URL,
    );
    assert.match(html, /<p title="say &quot;hi&quot;">a &lt;b&gt; &amp; c<\/p>/);
  });

  it('answers empty strings for an empty page', () => {
    assert.deepEqual(extractMainContent('', URL), { html: '', markdown: '' });
  });
});
