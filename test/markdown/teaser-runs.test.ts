/**
 * Teaser runs (teaser-runs.ts): the blog roll a template sets after a story (3 or more
 * cards of one shape, each a heading that is one link over a line of blurb) is not the
 * story, while a hub made of such cards and a listicle whose long sections are headed by
 * links keep them. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const story = [
  'I spent the autumn learning to bake bread at home, and the first loaves were dense enough to serve as doorstops for the whole flat.',
  'The turning point was a slower rise: a night in the fridge gives the yeast time to work, and the crumb opens up in a way no recipe had told me.',
  'Flour matters less than I thought; water, salt and patience matter more, and a hot oven with a tray of water on the bottom shelf does the rest.',
  'Now I bake twice a week, and the neighbours have stopped asking whether the smell from the stairwell means that something is on fire.',
  'Next I want to try rye, which everyone tells me is a different craft altogether, with a starter that needs feeding like a small pet.',
]
  .flatMap((p, i) => [`<p>${p}</p>`, `<p>Week ${i + 2}: ${p.toLowerCase()}</p>`])
  .join('');

const card = (i: number, blurb: string) => `<div class="card"><h4 class="title">
  <a href="https://friend${i}.example.net/posts/${i}">A post on another blog, number ${i}</a></h4>
  <p class="summary">${blurb}</p><small class="date">3 days ago</small></div>`;

const roll = `<section class="roll"><h3>Recent posts on blogs I like:</h3><section class="cards">
  ${[1, 2, 3]
    .map((i) =>
      card(
        i,
        'The opening lines of this other post, as its feed gives them: a walk in the hills, a recipe for soup, and some thoughts on the long winter evenings.',
      ),
    )
    .join('')}</section></section>`;

const URL = 'https://baker.example.org/posts/bread';

describe('teaser runs', () => {
  it('drops a blog roll of link-headed cards after a story, with its heading', () => {
    const html = `<!doctype html><html><head><title>Bread</title></head><body>
      <article><h1>Bread</h1>${story}${roll}</article></body></html>`;
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /a slower rise/);
    assert.match(md, /try rye/);
    assert.doesNotMatch(md, /another blog|Recent posts on blogs/, md);
  });

  it('keeps such cards when they are most of the page (a hub)', () => {
    const cards = Array.from({ length: 8 }, (_, i) =>
      card(
        i,
        'A guide to one part of the toolkit: what it does, when to use it and where to start.',
      ),
    ).join('');
    const html = `<!doctype html><html><head><title>Guides</title></head><body>
      <main><h1>Guides</h1><p>Everything you need to build with the toolkit, in one place.</p>
      <div class="cards">${cards}</div></main></body></html>`;
    const md = htmlToMarkdown(html, 'https://docs.example.org/guides');
    assert.match(md, /another blog, number 7/, md);
  });

  it('keeps a listicle whose sections are headed by links and say more than a blurb', () => {
    const long =
      'It has a clear editor, a fair price and good support, though its reports are thin; we used it for three months on two real courses and liked how quickly a new lesson goes up. '.repeat(
        3,
      );
    const html = `<!doctype html><html><head><title>Course tools</title></head><body>
      <article><h1>Course tools</h1>${story}${[1, 2, 3].map((i) => card(i, long)).join('')}</article></body></html>`;
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /another blog, number 3/, md);
  });
});
