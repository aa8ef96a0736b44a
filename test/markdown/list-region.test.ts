/**
 * Listings and collections (issue 28): the items of a list of sibling blocks of one shape are
 * the content. The Readability-style scorer keeps the item with the most prose; the list it
 * is an item of (list-region.ts) is taken instead. Pages written for the test, without a
 * `<main>` (page-region.ts would take that).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example/section';

const LONG = `The council met on Tuesday evening to discuss the plan, and after a long debate, in which residents, shop owners and the school's parents spoke, it agreed to keep the bridge open to bicycles and buses, while cars will take the ring road from the first of March. The works begin in spring, and the council expects them to last until the end of the summer holidays.`;

// each item adds its own classes after the shared one, as templates do
const TOPICS = ['city', 'sport', 'arts', 'travel'];
const NOTE =
  'A note on the market hall opening hours during the works on the square next to the town hall and the old fire station';

const teaser = (i: number, snippet: string) => `<div class="teaser topic-${TOPICS[i % 4]}">
  <h2><a href="/story/${i}">Headline of story number ${i}</a></h2>
  <span class="when">3 May 2025</span><p>${snippet}</p></div>`;

const page = (items: string) => `<!doctype html><html><head><title>Local news</title></head><body>
  <div id="top"><a href="/">News Example</a></div>
  <div class="columns"><div class="stories"><h1>Local news</h1>${items}
    <div class="pager"><a href="?page=2">2</a> <a href="?page=3">3</a></div></div>
  <div class="side"><p>SIDETEXT Subscribe to our morning letter, every day at seven.</p></div></div>
  <div class="bottom"><p>BOTTOMTEXT News Example, all rights reserved.</p></div></body></html>`;

describe('the list the extraction took one item of', () => {
  it('keeps every item of a listing when one item has the most prose', () => {
    const items = [teaser(0, LONG)];
    for (let i = 1; i < 8; i++) items.push(teaser(i, `A short summary of story ${i}.`));
    const md = htmlToMarkdown(page(items.join('')), URL);
    for (let i = 0; i < 8; i++) {
      assert.match(
        md,
        new RegExp(`\\[Headline of story number ${i}\\]\\(https://news.example/story/${i}\\)`),
      );
    }
    assert.match(md, /A short summary of story 7\./);
    assert.match(md, /The council met on Tuesday evening/);
    assert.doesNotMatch(md, /SIDETEXT|BOTTOMTEXT/);
  });

  it('leaves an article alone when the teasers sit beside it', () => {
    const story = `<div class="story"><h1>The bridge stays open</h1><p>${LONG}</p><p>${LONG}</p></div>`;
    const teasers = Array.from({ length: 6 }, (_, i) => teaser(i, `Summary ${i}.`)).join('');
    const md = htmlToMarkdown(
      `<!doctype html><html><body><div class="wrap">${story}<div class="more">${teasers}</div></div></body></html>`,
      URL,
    );
    assert.match(md, /The council met on Tuesday evening/);
    assert.doesNotMatch(md, /Headline of story number/);
  });

  it('leaves an article alone in a layout of classless columns', () => {
    const column = (i: number) =>
      `<div><a href="/c/${i}">Column ${i} link</a><p>COLUMN${i} ${NOTE}</p></div>`;
    const columns = [1, 2, 3, 4, 5, 6].map(column).join('');
    const md = htmlToMarkdown(
      `<!doctype html><html><body><div><div><a href="/">Home</a><h1>The bridge stays open</h1><p>${LONG}</p><p>${LONG}</p></div>${columns}</div></body></html>`,
      URL,
    );
    assert.match(md, /The council met on Tuesday evening/);
    assert.doesNotMatch(md, /COLUMN\d/);
  });

  // a launch list: an intro paragraph, then items of a name, a tagline and topic links; the
  // scorer keeps the intro, and the items are short lines without sentences
  const launches = (itemClass: string) => {
    const item = (i: number) => `<section class="${itemClass}">
      <a href="/p/${i}">Product ${i}</a> Folder tidying tool ${i}
      <span class="topics"><a href="/t/a">Design</a> • <a href="/t/b">Tools</a></span></section>`;
    const items = [1, 2, 3, 4, 5, 6].map(item).join('');
    return `<!doctype html><html><head><title>Launches</title></head><body>
      <div class="wrap"><div class="list"><div class="intro">For the first hours of the day the votes are hidden, so that every product gets a fair chance to catch your eye and nobody is left out of the list below.</div>${items}</div>
      <div class="side"><p>SIDETEXT Subscribe to our morning letter, every day at seven.</p></div></div></body></html>`;
  };

  it('keeps the short items of a list below its intro paragraph', () => {
    const md = htmlToMarkdown(launches('group flex'), URL);
    assert.match(md, /For the first hours of the day/);
    for (let i = 1; i <= 6; i++) {
      assert.match(
        md,
        new RegExp(
          `\\[Product ${i}\\]\\(https://news\\.example/p/${i}\\) Folder tidying tool ${i}`,
        ),
      );
    }
    assert.doesNotMatch(md, /SIDETEXT/);
  });

  it('keeps items whose utility classes hold a boilerplate name inside a word', () => {
    // "celebrating" holds "rating", which names a rating widget elsewhere
    const md = htmlToMarkdown(launches('group data-[voice-celebrating=true]:z-10'), URL);
    for (let i = 1; i <= 6; i++) assert.match(md, new RegExp(`Folder tidying tool ${i}`));
  });
});
