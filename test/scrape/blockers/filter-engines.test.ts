import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  cosmeticCss,
  type FilterEngines,
  loadFilterEngines,
  matchesNetworkBlock,
} from '../../../src/scrape/blockers/filter-engines.js';
import { builtFilterDir } from './built-filters.js';

const PAGE = 'http://127.0.0.1:1234/';
const NONE = { ads: false, cookieBanners: false, chatWidgets: false };
const ALL = { ads: true, cookieBanners: true, chatWidgets: true };

describe('filter engines', () => {
  let engines: FilterEngines;
  before(async () => {
    engines = await loadFilterEngines(builtFilterDir());
  });

  it('records the lists, their licence and the dropped local-host exceptions', () => {
    const ads = engines.manifest.engines.ads;
    assert.ok(ads);
    assert.deepEqual(
      ads.lists.map((l) => l.id),
      [2, 3],
    );
    assert.match(ads.lists[0]!.license, /GPL-3\.0/);
    assert.ok(ads.lists[0]!.droppedLocalHostExceptions.includes('@@://127.0.0.1$generichide'));
    assert.ok(ads.networkFilters > 100_000);
    assert.ok((engines.manifest.engines.cookies?.cosmeticFilters ?? 0) > 1000);
  });

  it('blocks an ad network script on a loopback page only when ads are selected', () => {
    const req = {
      url: 'https://securepubads.g.doubleclick.net/tag/js/gpt.js',
      type: 'script',
      sourceUrl: PAGE,
    };
    assert.equal(matchesNetworkBlock(engines, req, { ...NONE, ads: true }), true);
    assert.equal(
      matchesNetworkBlock(engines, req, { ...NONE, cookieBanners: true, chatWidgets: true }),
      false,
    );
  });

  it('blocks ad iframes reported by Playwright as documents', () => {
    const req = {
      url: 'https://securepubads.g.doubleclick.net/gampad/ads?iu=/1/x',
      type: 'document',
      sourceUrl: PAGE,
    };
    assert.equal(matchesNetworkBlock(engines, req, ALL), true);
  });

  it('never blocks the page itself or its first-party resources', () => {
    assert.equal(
      matchesNetworkBlock(engines, { url: PAGE, type: 'document', sourceUrl: PAGE }, ALL),
      false,
    );
    assert.equal(
      matchesNetworkBlock(
        engines,
        { url: `${PAGE}static/app.js`, type: 'script', sourceUrl: PAGE },
        ALL,
      ),
      false,
    );
  });

  it('blocks a consent platform SDK with cookie banners selected', () => {
    const req = {
      url: 'https://cdn.cookielaw.org/scripttemplates/otSDKStub.js',
      type: 'script',
      sourceUrl: PAGE,
    };
    assert.equal(matchesNetworkBlock(engines, req, { ...NONE, cookieBanners: true }), true);
    assert.equal(matchesNetworkBlock(engines, req, NONE), false);
  });

  it('blocks chat vendors through the vendor list', () => {
    const req = {
      url: 'https://widget.intercom.io/widget/abc123',
      type: 'script',
      sourceUrl: PAGE,
    };
    assert.equal(matchesNetworkBlock(engines, req, { ...NONE, chatWidgets: true }), true);
    assert.equal(matchesNetworkBlock(engines, req, NONE), false);
  });

  it('hides generic ad classes on a loopback page (local-host generichide dropped)', () => {
    const css = cosmeticCss(
      engines,
      PAGE,
      { ...NONE, ads: true },
      { classes: ['banner-ad'], ids: [], hrefs: [] },
    );
    assert.match(css, /\.banner-ad\b/);
    assert.match(css, /display: none !important/);
  });

  it('hides every generic rule when the DOM is not known yet', () => {
    const css = cosmeticCss(engines, PAGE, ALL);
    assert.match(css, /\.banner-ad\b/);
    assert.match(css, /#onetrust-consent-sdk/);
    assert.match(css, /#intercom-container/);
  });

  it('keeps the lists’ $generichide exceptions for public sites', () => {
    const ads = { ...NONE, ads: true };
    assert.match(cosmeticCss(engines, 'https://www.example.com/a', ads), /\.banner-ad\b/);
    // AdGuard Base: @@||gmail.com^$generichide
    assert.doesNotMatch(cosmeticCss(engines, 'https://gmail.com/inbox', ads), /\.banner-ad\b/);
    assert.match(cosmeticCss(engines, 'https://www.example.com/b', ads), /\.banner-ad\b/);
  });

  it('returns no stylesheet when nothing is selected', () => {
    assert.equal(cosmeticCss(engines, PAGE, NONE), '');
  });

  it('tells to run the build when the engines are missing', async () => {
    await assert.rejects(loadFilterEngines('/nonexistent/filters'), /run `npm run build`/);
  });
});
