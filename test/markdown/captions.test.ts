/**
 * Photo captions and page controls named as such inside the article (trim-article.ts): "legend" (French and
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

describe('page controls', () => {
  it('drops print links and show/hide toggles named as such', () => {
    // between two paragraphs, where the edge rule (edge-blocks.ts) does not reach
    const controls =
      '<p><a class="recipe-print recipe-link" href="/print/1">Print the recipe</a></p><div class="citation__toggle js-accordion-toggle">Hide the sources</div>';
    const md = htmlToMarkdown(page('').replace('<p>Absatz 3:', `${controls}<p>Absatz 3:`), URL);
    assert.doesNotMatch(md, /Print the recipe|Hide the sources/);
    assert.match(md, /Absatz 2:/);
    assert.match(md, /Absatz 4:/);
  });

  it('keeps a picture inside a toggle, and text longer than a label', () => {
    const md = htmlToMarkdown(
      page(
        '<a class="lightbox-toggle" href="/big.jpg"><img src="/chart.png" alt="The chart"></a><div class="toggle-content"><p>Die Quellen der Studie sind die Zählungen der Jahre 2019 bis 2021 in allen Kantonen.</p></div>',
      ),
      URL,
    );
    assert.match(md, /!\[The chart\]/);
    assert.match(md, /Die Quellen der Studie/);
  });
});
