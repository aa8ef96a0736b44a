/**
 * The body a page gives only as schema.org data (structured-body.ts): a page rendered in the
 * browser from a script ships its text in `<script type="application/ld+json">` for search
 * engines, and its markup holds only chrome. The data is taken only when the markup yields
 * next to nothing. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://app.example.com/story/42';

const paragraphs = Array.from(
  { length: 8 },
  (_, i) => `Paragraph ${i} of the story, long enough to be read as prose, with commas and detail.`,
);

const shell = (data: string, markup = '') =>
  `<!doctype html><html><head><title>A story</title>
  <script type="application/ld+json">${data}</script></head><body>
  <header><a href="/">Home</a> <a href="/login">Log in</a></header>
  <div id="app">${markup}<p>Loading…</p></div></body></html>`;

describe('the body from schema.org data', () => {
  it("takes an article's articleBody when the markup is an app shell", () => {
    const data = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'Example' },
        { '@type': 'NewsArticle', headline: 'A story', articleBody: paragraphs.join('\n') },
      ],
    });
    const md = htmlToMarkdown(shell(data), URL);
    assert.match(md, /Paragraph 0 of the story/);
    assert.match(md, /Paragraph 7 of the story/);
    // one paragraph a line of the text
    assert.match(md, /detail\.\n\nParagraph 1/);
  });

  it("takes a HowTo's description and steps", () => {
    const data = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'HowTo',
      name: 'A round tablecloth',
      description: `<p>${paragraphs[0]}</p><p>${paragraphs[1]}</p>`,
      step: [1, 2, 3, 4, 5].map((n) => ({
        '@type': 'HowToStep',
        name: `Step ${n}: measure`,
        itemListElement: {
          '@type': 'HowToDirection',
          text: `<p>Direction ${n}: ${paragraphs[n]}</p>`,
        },
      })),
    });
    const md = htmlToMarkdown(shell(data), URL);
    assert.match(md, /Paragraph 0 of the story/);
    assert.match(md, /### Step 2: measure/);
    assert.match(md, /Direction 3: Paragraph 3/);
  });

  it('keeps the markup when it holds the text, and ignores data that is not JSON', () => {
    const markup = paragraphs.map((p) => `<p>In the markup: ${p}</p>`).join('');
    const data = JSON.stringify({ '@type': 'Article', articleBody: 'In the data only.' });
    const md = htmlToMarkdown(shell(data, markup), URL);
    assert.match(md, /In the markup: Paragraph 4/);
    assert.doesNotMatch(md, /In the data only/);
    const broken = htmlToMarkdown(shell('{"@type": "Article", "articleBody": '), URL);
    assert.doesNotMatch(broken, /Paragraph/);
  });
});
