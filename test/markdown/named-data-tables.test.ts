/**
 * Named boilerplate (discard.ts) and data tables: a box named like boilerplate ("embed",
 * "rating") that holds a data table is the table's box, kept, while such a box of prose or
 * links still goes. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const paragraphs = [
  'Health insurers in the country differ in who owns them, how many members they serve and in which states they sell their plans to families and employers.',
  'The table below compares the largest of them by membership, the kind of company and whether they take part in the public programmes for older and poorer people.',
  'Membership figures are estimates from the companies’ own reports of last year; regional plans under one brand are counted together where the brand reports them so.',
  'A plan’s price depends on far more than its insurer, so the table is a starting point for a comparison of your own, not a ranking of the companies.',
];

const rows = Array.from(
  { length: 8 },
  (_, i) =>
    `<tr><td>Insurer ${i + 1}</td><td>${i % 2 ? 'Non-Profit' : 'For-Profit'}</td><td>~${40 - i * 4}M members</td><td>${50 - i * 5} states</td></tr>`,
).join('');

const page = (
  box: string,
) => `<!doctype html><html><head><title>Largest insurers</title></head><body>
  <header><nav><a href="/">Home</a></nav></header>
  <article><h1>Largest insurers</h1>
    ${paragraphs.map((p) => `<p>${p}</p>`).join('')}
    <div class="${box}"><table><thead><tr><th>Company</th><th>Type</th><th>Membership</th><th>States</th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    <div class="${box}"><p>Follow us: <a href="/x">X</a> <a href="/fb">Facebook</a> <a href="/in">LinkedIn</a></p></div>
    <p>Whichever insurer you choose, read the plan’s summary of benefits before you sign, and compare the deductible as well as the premium.</p>
  </article>
  <footer><p>Example Media</p></footer></body></html>`;

describe('data tables in boxes named like boilerplate', () => {
  it('keeps a data table whose box a site builder names an embed', () => {
    const md = htmlToMarkdown(page('w-embed'), 'https://health.example.com/insurers');
    assert.match(md, /Insurer 8/, md);
    assert.match(md, /\| Company \| Type \|/);
    assert.doesNotMatch(md, /Follow us/);
  });
});
