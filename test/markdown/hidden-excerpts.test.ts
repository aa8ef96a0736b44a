/**
 * Excerpts of a folded text (hidden-excerpts.ts): a category page that sends its whole
 * "read more" text in a class-hidden block, after the visible opening (re-typed, cut short)
 * a toggle swaps it for, says that opening once; a visible paragraph that is not a copy of
 * the folded text stays. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/collections/sheets';

const opening =
  'The makings of a good night start with the bed: sheets that breathe, keep their shape and feel soft from the first wash to the hundredth.';
const rest =
  'Our range of fabrics means every sleeper finds a match, from crisp percale for warm nights to brushed flannel for the coldest winter weeks.';

const page = (excerpt: string) => `<!doctype html><html><head><title>Sheets</title></head><body>
  <header><nav><a href="/">Shop</a> <a href="/sheets">Sheets</a></nav></header>
  <main><h1>Sheets</h1>
    <p>Everything you need for the bedroom, chosen by our team and tested at home for a year.</p>
    <div class="seo-text"><h4>Sheets for your sleep</h4>
      <span class="seo-excerpt">${excerpt}</span>
      <span class="seo-copy hidden"><p>${opening.replace('start', 'starts')} ${rest}</p>
        <p>Wash them warm, dry them low and they will last for years of good sleep.</p></span>
    </div>
  </main>
  <footer><p>Shop Ltd</p></footer></body></html>`;

const count = (md: string, s: string) => md.split(s).length - 1;

describe('hidden text excerpts', () => {
  it('drops the visible opening set before the whole text its class hides', () => {
    const md = htmlToMarkdown(page(`<p>${opening}</p>`), URL);
    assert.equal(count(md, 'sheets that breathe'), 1, md);
    assert.match(md, /crisp percale/);
    assert.match(md, /Sheets for your sleep/);
  });

  it('keeps a visible paragraph that the folded text does not hold', () => {
    const other =
      'Free returns within sixty days on every set of sheets, pillowcases and duvet covers in the shop.';
    const md = htmlToMarkdown(page(`<p>${other}</p>`), URL);
    assert.match(md, /Free returns within sixty days/);
    assert.match(md, /crisp percale/);
  });
});
