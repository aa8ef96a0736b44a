import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  type FilterEngines,
  loadFilterEngines,
} from '../../../src/scrape/blockers/filter-engines.js';
import { MAX_STATIC_DEPTH, stripBlocked } from '../../../src/scrape/blockers/static-blocker.js';
import { builtFilterDir } from './built-filters.js';

const FIXTURE = readFileSync(
  new URL('../../helpers/fixtures/blocked-page.html', import.meta.url),
  'utf8',
);
// A loopback page URL: AdGuard Base exempts 127.0.0.1 from generic hiding; the build drops that.
const PAGE = 'http://127.0.0.1:1234/article';
const NONE = { ads: false, cookieBanners: false, chatWidgets: false };

describe('stripBlocked (render=false)', () => {
  let engines: FilterEngines;
  before(async () => {
    engines = await loadFilterEngines(builtFilterDir());
  });

  it('removes ad scripts, ad iframes and ad-class elements on a loopback page', () => {
    const out = stripBlocked(FIXTURE, PAGE, { ...NONE, ads: true }, engines);
    assert.doesNotMatch(out, /securepubads\.g\.doubleclick\.net/);
    assert.doesNotMatch(out, /class="banner-ad"/);
    assert.doesNotMatch(out, /class="adsbygoogle"/);
    // Ads only: the cookie banner and the chat widget stay.
    assert.match(out, /id="onetrust-banner-sdk"/);
    assert.match(out, /id="intercom-container"/);
  });

  it('removes a OneTrust cookie banner', () => {
    const out = stripBlocked(FIXTURE, PAGE, { ...NONE, cookieBanners: true }, engines);
    assert.doesNotMatch(out, /onetrust-banner-sdk/);
    assert.doesNotMatch(out, /onetrust-accept-btn-handler/);
    assert.match(out, /securepubads/);
  });

  it('removes the Intercom loader, its inline snippet and its container', () => {
    const out = stripBlocked(FIXTURE, PAGE, { ...NONE, chatWidgets: true }, engines);
    assert.doesNotMatch(out, /widget\.intercom\.io/);
    assert.doesNotMatch(out, /intercom-container/);
    assert.doesNotMatch(out, /intercomSettings/);
    assert.match(out, /onetrust-banner-sdk/);
  });

  it('cuts implicitly closed elements without taking the tag that closed them', () => {
    const html =
      '<!doctype html><html><body><ul><li class="banner-ad">ad<li id="next">keep</ul>' +
      '<div><p class="banner-ad">ad</div><p class="banner-ad"><p id="after">kept</body></html>';
    const out = stripBlocked(html, PAGE, { ...NONE, ads: true }, engines);
    assert.equal(
      out,
      '<!doctype html><html><body><ul><li id="next">keep</ul><div></div><p id="after">kept</body></html>',
    );
  });

  it('returns the page unchanged when nothing is selected', () => {
    assert.equal(stripBlocked(FIXTURE, PAGE, NONE, engines), FIXTURE);
  });

  it('keeps the main content and first-party resources with everything selected', () => {
    const out = stripBlocked(
      FIXTURE,
      PAGE,
      { ads: true, cookieBanners: true, chatWidgets: true },
      engines,
    );
    assert.match(out, /<h1>The main article<\/h1>/);
    assert.match(out, /<p id="keep-me">This paragraph is the main content/);
    assert.match(out, /<img src="\/images\/photo\.jpg"/);
    assert.match(out, /<script src="\/static\/app\.js"><\/script>/);
    assert.match(out, /<link rel="stylesheet" href="\/static\/site\.css">/);
    assert.match(out, /^<!doctype html>/);
  });

  it('still cuts an ad 500 elements deep, and leaves a page nested deeper than any browser as is', () => {
    const ad = '<div class="banner-ad">ad</div>';
    const nested = (depth: number) =>
      `<!doctype html><html><body>${'<div>'.repeat(depth)}${ad}<p>text</p></body></html>`;
    const which = { ...NONE, ads: true };
    const within = stripBlocked(nested(500), PAGE, which, engines);
    assert.doesNotMatch(within, /banner-ad/);
    assert.match(within, /<p>text<\/p>/);
    // 200,000 unclosed <div>s: parsed whole, this held the event loop ~50 s in the parser
    // alone (O(depth) per element); bounded at MAX_STATIC_DEPTH it is answered unchanged.
    const deep = nested(200_000);
    assert.ok(MAX_STATIC_DEPTH < 200_000);
    assert.equal(stripBlocked(deep, PAGE, which, engines), deep);
  });

  // A guard against a hang, not a benchmark (bench/static-blocker-stall.ts times the strip).
  it('strips a 1 MB page of cards: the ads go, the cards stay', { timeout: 60_000 }, () => {
    const card = (i: number): string =>
      `<div class="card item-${i}" id="n${i}"><a href="/post/${i}">Post ${i}</a><p>Lorem ipsum ${i}</p>${i % 10 === 0 ? `<img src="/img/${i}.jpg">` : ''}</div>`;
    const body: string[] = [];
    let size = 0;
    for (let i = 0; size < 1024 * 1024; i++) {
      const part = i % 100 === 99 ? '<div class="banner-ad">ad</div>' : card(i);
      body.push(part);
      size += part.length;
    }
    const html = `<!doctype html><html><head><title>big</title></head><body>${body.join('')}</body></html>`;
    const out = stripBlocked(
      html,
      PAGE,
      { ads: true, cookieBanners: true, chatWidgets: true },
      engines,
    );
    assert.doesNotMatch(out, /banner-ad/);
    assert.match(out, /id="n1998"/);
  });
});
