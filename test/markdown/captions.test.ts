/**
 * Photo captions named as such inside the article (trim-article.ts): "legend" (French and
 * Swiss CMSs' word for a caption, légende) goes like "caption" and "credit"; a class that only
 * contains the letters (`legendary`) does not. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example.ch/de/news/2021/habitat.html';

const prose = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Absatz ${i}: die Förderung der Zielarten im Wald beginnt mit lichten Beständen, in denen seltene Vögel und Käfer wieder Platz finden, und sie dauert viele Jahre.</p>`,
).join('');

const page = (box: string) => `<!doctype html><html><head><title>Habitat</title></head><body>
  <div id="content"><h1>Habitat</h1>${prose}
    <div class="images"><div class="image-right"><img src="/b.jpg" alt="">${box}</div></div>
  </div></body></html>`;

describe('captions named legend', () => {
  it('drops a block named legend', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="legend"><div class="content">Der Hirschkäfer lebt in alten Eichen.</div></div>',
      ),
      URL,
    );
    assert.doesNotMatch(md, /Hirschkäfer/);
    assert.match(md, /Absatz 4:/);
  });

  it('keeps a block whose name only contains the word', () => {
    const md = htmlToMarkdown(
      page('<div class="legendary-note"><p>Der Hirschkäfer lebt in alten Eichen.</p></div>'),
      URL,
    );
    assert.match(md, /Hirschkäfer/);
  });
});
