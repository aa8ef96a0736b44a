/**
 * Item labels (item-labels.ts): the short lines a list's template prints in every item (a
 * badge, a call to action, a reply's `Re:` heading) are not in the Markdown, while what
 * differs from item to item is, and so are a field's name beside its value, a connecting
 * word inside a line and a table's repeated cells. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://jobs.example.org/latest';

const titles = [
  'Senior data engineer for a logistics platform',
  'Product designer, mobile banking',
  'Support lead for the night shift in Lisbon',
  'Backend developer for payments and invoicing',
  'Technical writer for a developer portal',
];

const item = (title: string, i: number) => `<li class="job">
    <h3><a href="/jobs/${i}">${title}</a></h3>
    <span class="badge">Featured</span>
    <p class="teaser">Full time, remote within Europe, posted by a company of ${20 + i} people who ship every week.</p>
    <dl><dt class="field">Contract</dt><dd>${i % 2 ? 'Permanent' : 'Fixed term'}</dd></dl>
    <p class="by">by <a href="/company/${i}">Company ${i}</a></p>
    <a class="more" href="/company/${i}/profile">View company profile</a>
  </li>`;

const page = `<!doctype html><html><head><title>Latest jobs</title></head><body>
  <header><nav><a href="/">Jobs</a> <a href="/post">Post a job</a></nav></header>
  <main><h1>Latest jobs</h1><ul class="jobs">${titles.map(item).join('')}</ul>
  <table><tbody>${titles.map((t, i) => `<tr class="row"><td><a href="/jobs/${i}">${t}</a></td><td>Remote</td></tr>`).join('')}</tbody></table>
  </main>
  <footer><p>Jobs Ltd</p></footer></body></html>`;

describe('labels repeated in every item of a list', () => {
  const md = htmlToMarkdown(page, URL);

  it('drops a badge and a call to action that every item repeats', () => {
    assert.ok(!md.includes('Featured'), md);
    assert.ok(!md.includes('View company profile'), md);
  });

  it('keeps what differs from item to item', () => {
    for (const title of titles) assert.ok(md.includes(title), title);
    assert.ok(md.includes('Company 3'), md);
  });

  it("keeps a field's name beside its value and a word inside a line", () => {
    assert.ok(md.includes('Contract'), md);
    assert.ok(md.includes('by [Company 1]'), md);
  });

  it("keeps a table's repeated cells", () => {
    assert.ok(md.includes('Remote |') || md.includes('| Remote'), md);
  });
});

describe('labels in a hostile list', () => {
  it('reads a thousand items of a hundred short lines each, drops their label and keeps what differs', {
    timeout: 120_000,
  }, () => {
    const spans = Array.from({ length: 100 }, (_, i) => `<span>tag ${i % 7 ? 'x' : i}</span>`);
    const items = Array.from(
      { length: 1_000 },
      (_, i) =>
        `<li class="card"><a href="/i/${i}">Item number ${i} of the long list</a>${spans.join('')}<span>Sponsored</span></li>`,
    );
    const md = htmlToMarkdown(
      `<!doctype html><html><head><title>Cards</title></head><body><main><h1>Cards</h1><ul>${items.join('')}</ul></main></body></html>`,
      URL,
    );
    assert.ok(md.includes('Item number 999 of the long list'), md.slice(0, 400));
    assert.ok(!md.includes('Sponsored'), md.slice(0, 400));
  });
});
