/**
 * "Read more" blocks written as lines of one paragraph (related-links.ts): the label on the
 * first line, one link to another story a line under it (issue 28). Pages written for the
 * test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example/science/plague';

const PARAGRAPH = `Health authorities confirmed a third case of the plague in the region, after two people contracted it earlier this month, and the people the patient met were quarantined while the tests went on.`;

const links = [
  'Plague and influenza warning: agency names eight deadly diseases',
  'Plague fears: travellers fall ill after eating marmot',
  'Plane passengers quarantined after plague outbreak',
  'What the doctors of the fourteenth century knew about the plague',
]
  .map((title, i) => `<strong><a href="/news/${i}/story">${title}</a> [NEWS]</strong>`)
  .join('<br>');

const page = (label: string) => `<!doctype html><html><head><title>Plague</title></head><body>
  <article><h1>Plague</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p>
  <p><strong>${label}</strong><br>${links}</p><p>${PARAGRAPH}</p></article>
  </body></html>`;

describe('related links as lines of a paragraph', () => {
  it('drops a labelled paragraph whose lines under the label are links to other stories', () => {
    const md = htmlToMarkdown(page("Don't miss"), URL);
    assert.match(md, /Health authorities confirmed a third case/);
    assert.doesNotMatch(md, /travellers fall ill/);
  });

  it('keeps such a paragraph when its first line is not a label', () => {
    const md = htmlToMarkdown(page('Sources we used'), URL);
    assert.match(md, /travellers fall ill/);
  });
});
