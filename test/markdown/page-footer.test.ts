/**
 * The page's footer (boilerplate.ts): a `<footer>` outside every sectioning element is the
 * contentinfo landmark, and when it is mostly links it is chrome, however much of the page
 * it holds (issue 28: shops' script shells, their `#root` empty, came out as their footer's
 * link columns; a service's shell as its footer's list of insurers). Pages written for
 * the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/item/1';

const links = (names: string[], between: string) =>
  names.map((n, i) => `<a href="/${i}">${n}</a>`).join(between);

const COLUMNS: Record<string, string[]> = {
  Help: ['Help Center', 'Disputes and Reports', 'Return and refund policy', 'Recalls'],
  'Sites in other languages': ['Russian', 'Portuguese', 'Spanish', 'French', 'German', 'Polish'],
  'Browse by category': ['All popular', 'Products', 'Promotions', 'Low price', 'Reviews', 'Blog'],
};

const LEGAL = [
  'Intellectual Property Protection',
  'Privacy Policy',
  'Sitemap',
  'Terms of Use',
  'Information for consumers',
  'Legal Information',
  'Transaction Services Agreement',
];

/** The site's link columns and the line of legal links under them, as a shop writes them. */
const siteBottom = () => `<div class="site-bottom">${Object.entries(COLUMNS)
  .map(
    ([name, items]) =>
      `<div class="col"><dl><dt><h5>${name}</h5></dt><dd>${links(items, ', ')}</dd></dl></div>`,
  )
  .join('')}</div>
  <div class="legal"><div class="container">${links(LEGAL, ' - ')} ©2010-2025 Shop.example. All rights reserved.</div></div>`;

const shell = (
  bottom: string,
) => `<!doctype html><html><head><title>Wireless keyboard</title></head><body>
  <div id="header-slot" style="height:72px"></div>
  <div id="root"></div>
  ${bottom}
  <script>window.render()</script></body></html>`;

describe('the page footer', () => {
  it('leaves nothing of a script shell whose only markup is its footer of link columns', () => {
    assert.equal(htmlToMarkdown(shell(`<footer>${siteBottom()}</footer>`), URL), '');
  });

  it('leaves a footer inside a section to the extraction', () => {
    const md = htmlToMarkdown(shell(`<section><footer>${siteBottom()}</footer></section>`), URL);
    assert.match(md, /Privacy Policy/);
  });
});
