/**
 * The container the page names as its text (`class="entry"`) extracted on its own, with the
 * same retries as the whole page, and preferred to the scorer's choice when it holds as much
 * text outside links: a page builder's text widgets (classes named "widget", which
 * Readability weighs as chrome) against a list of teasers for other posts. Page written
 * for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} on ${topic}, told at some length, with commas, as prose is.`,
  ).join(' ');

const widgets = Array.from(
  { length: 3 },
  (_, i) =>
    `<div class="elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${prose(`earrings ${i}`, 5)}</p></div></div>`,
).join('');

const teasers = Array.from(
  { length: 4 },
  (_, i) =>
    `<li><h3><a href="/post-${i}">Another post ${i}, with a long title about earrings, rings and more</a></h3><p>${prose(`another post ${i}`, 3)} […]</p><a href="/post-${i}">Read on</a></li>`,
).join('');

const page = `<!doctype html><html><head><title>Ear candy</title></head><body><div id="pagewrapper">
<header><a href="/">Blog</a></header>
<div class="entry"><h1>Ear candy</h1>${widgets}</div>
<div class="more-posts"><ul>${teasers}</ul></div>
</div></body></html>`;

describe('the named text container against the scorer', () => {
  it("takes a page builder's text widgets over a list of teasers beside them", () => {
    const md = htmlToMarkdown(page, 'https://blog.example.com/ear-candy/');
    assert.match(md, /Sentence 0 on earrings 0/);
    assert.match(md, /Sentence 4 on earrings 2/);
    assert.doesNotMatch(md, /Another post 1/);
  });
});
