import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { needsJavascript } from '../../../src/scrape/engines/needs-javascript.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const shell = (body: string, head = '') => needsJavascript({ html: page(body, head) });

const APP_SCRIPT = '<script type="module" src="/assets/index-4f2a.js"></script>';
const FETCH_SCRIPT = `<script>addEventListener('load', async () => {
  document.getElementById('app').textContent = await (await fetch('/api/content')).text();
});</script>`;
/** About 450 characters of a server-rendered header and footer around the page's middle. */
const CHROME = {
  header: `<header><nav>${['Home', 'Shop', 'Journal', 'Stores', 'Help', 'Account', 'Basket']
    .map((name) => `<a href="/${name.toLowerCase()}">${name}</a>`)
    .join(
      ' ',
    )}</nav><p>Free delivery on orders over 50 euros, returns within thirty days.</p></header>`,
  footer: `<footer><p>${'Company, careers, press, sustainability, terms of sale, privacy, cookies. '.repeat(4)}</p></footer>`,
};
const ARTICLE = `<main><article><h1>How the river changed course</h1>${'<p>The flood of that spring moved the river two hundred metres east, and the town followed it within a generation, rebuilding its quays on the new bank.</p>'.repeat(12)}</article></main>`;

describe('needsJavascript: a fetched shell is rendered', () => {
  it('a placeholder text and a script that fetches the content, in any language', () => {
    assert.equal(shell(`<div id="app">Loading...</div>${FETCH_SCRIPT}`), true);
    assert.equal(shell(`<div id="app">Chargement en cours…</div>${FETCH_SCRIPT}`), true);
    assert.equal(shell(`<div id="app">読み込み中…</div>${FETCH_SCRIPT}`), true);
    assert.equal(shell(`<div class="spinner" role="status"></div>${APP_SCRIPT}`), true);
  });

  it('an empty mount point of any name, with or without a noscript warning', () => {
    assert.equal(shell(`<div id="root"></div>${APP_SCRIPT}`), true);
    assert.equal(shell(`<div id="mount-7f3"></div>${APP_SCRIPT}`), true);
    assert.equal(shell(`<app-root></app-root>${APP_SCRIPT}`), true);
    assert.equal(
      shell(
        `<noscript>You need to enable JavaScript to run this app.</noscript><div></div>${APP_SCRIPT}`,
      ),
      true,
    );
  });

  it('a server-rendered header and footer around a middle still loading', () => {
    const skeletons = Array.from(
      { length: 6 },
      () =>
        '<li class="card card--skeleton"><span class="line"></span><span class="line"></span></li>',
    ).join('');
    assert.equal(
      shell(
        `${CHROME.header}<main><ul class="products">${skeletons}</ul></main>${CHROME.footer}${APP_SCRIPT}`,
      ),
      true,
    );
    assert.equal(
      shell(
        `${CHROME.header}<main aria-busy="true"><h1>Orders</h1></main>${CHROME.footer}${APP_SCRIPT}`,
      ),
      true,
    );
    assert.equal(shell(`${CHROME.header}<div id="root"></div>${CHROME.footer}${APP_SCRIPT}`), true);
    assert.equal(
      shell(
        `${CHROME.header}<main><table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody></tbody></table><ul></ul><progress></progress></main>${CHROME.footer}${APP_SCRIPT}`,
      ),
      true,
    );
  });
});

describe('needsJavascript: a page a fetch answers whole stays a fetch', () => {
  it('a server-rendered page, with its hydration data and scripts', () => {
    const nextData = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
      props: { pageProps: { body: 'x'.repeat(50_000) } },
    })}</script>`;
    assert.equal(shell(`<div id="__next">${ARTICLE}</div>${nextData}${APP_SCRIPT}`), false);
    assert.equal(
      shell(
        `${CHROME.header}${ARTICLE}${CHROME.footer}<script>${'var a=1;'.repeat(20_000)}</script>`,
      ),
      false,
    );
  });

  it('text in a noscript, as forums serve their posts, counts as text', () => {
    assert.equal(
      shell(`<div class="loading-spinner"></div><noscript>${ARTICLE}</noscript>${APP_SCRIPT}`),
      false,
    );
  });

  it('some text and no sign of loading, whatever the scripts', () => {
    assert.equal(
      shell(
        `${CHROME.header}<main><h1>About us</h1><p>We repair bicycles.</p></main>${CHROME.footer}${APP_SCRIPT}`,
      ),
      false,
    );
  });

  it('a page that runs no script: a render would show the same page', () => {
    assert.equal(shell('<h1>Not found</h1>'), false);
    assert.equal(shell('<div id="root"></div>'), false);
    assert.equal(
      shell('<div id="root"></div><script type="application/ld+json">{"@type":"Thing"}</script>'),
      false,
    );
  });

  it('a body after a head of megabytes is still read', () => {
    const head = `<style>${'.a{color:red}'.repeat(60_000)}</style>`;
    assert.equal(shell(`${ARTICLE}${APP_SCRIPT}`, head), false);
    assert.equal(shell(`<div id="app">Loading...</div>${FETCH_SCRIPT}`, head), true);
  });

  it('something that is not HTML', () => {
    assert.equal(
      needsJavascript({
        html: `<div id="root"></div>${APP_SCRIPT}`,
        contentType: 'application/json',
      }),
      false,
    );
  });
});
