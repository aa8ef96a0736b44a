/**
 * Layout utility classes (measure.ts classWeight): a box that clips or scrolls its overflow
 * (`overflow-x-scroll`, `overflow-hidden`, Tailwind's and the like) is layout, not chrome,
 * though the names hold Readability's negative words "scroll" and "hidden". Pages written
 * for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { classWeight } from '../../src/markdown/measure.js';

const paragraphs = [
  'A first marathon is best run after a few shorter races, so that the body learns the distance in steps and the mind learns to pace itself.',
  'The plan below builds up over twelve weeks, with one long run each weekend and two easier runs during the week, and a rest day after each hard one.',
  'Most runners start too fast on the day; a steady pace in the first half leaves enough in the legs for the last ten kilometres, where races are won or lost.',
];

const weeks = Array.from(
  { length: 6 },
  (_, i) =>
    `<tr><td>Week ${i + 1}</td><td>Rest</td><td>Easy run ${30 + i * 5} min</td><td>Cross-training</td><td>Long run ${60 + i * 10} min</td></tr>`,
).join('');

const page = `<!doctype html><html><head><title>Marathon plan</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/running">Running</a></nav></header>
  <div class="mx-auto max-w-3xl"><h1>Marathon plan</h1>
    ${paragraphs.map((p) => `<p>${p}</p>`).join('')}
    <div class="relative my-4"><div class="isolate overflow-x-scroll">
      <table class="w-full text-left"><thead><tr><td>Week</td><td>Monday</td><td>Tuesday</td><td>Wednesday</td><td>Sunday</td></tr></thead>
      <tbody>${weeks}</tbody></table>
    </div></div>
    <p>After the race, take a week of rest before running again, and walk a little every day to help the legs recover.</p>
  </div>
  <footer><p>Running Ltd</p></footer></body></html>`;

describe('layout utility classes', () => {
  it('keeps a table whose scroller is named overflow-x-scroll', () => {
    const md = htmlToMarkdown(page, 'https://run.example.com/plans/marathon');
    assert.match(md, /Long run 110 min/, md);
    assert.match(md, /Most runners start too fast/);
  });

  it('weighs an overflow utility at nothing, with or without a breakpoint prefix', () => {
    for (const cls of [
      'overflow-hidden',
      'md:overflow-x-auto overflow-y-scroll',
      'sm:overflow-clip',
    ]) {
      assert.equal(classWeight(createElement('div', { class: cls })), 0, cls);
    }
    assert.equal(classWeight(createElement('div', { class: 'sidebar overflow-hidden' })), -25);
    assert.equal(classWeight(createElement('div', { class: 'hidden' })), -25);
  });
});
