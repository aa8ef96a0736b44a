/**
 * The blockers hook is called from the single route and after load. The filter engines
 * themselves are tested in test/scrape/blockers; here a small pure stand-in proves the
 * wiring: its network verdict stops the request, its CSS lands in the page, and the consent
 * rejector is installed before navigation.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type BrowserBlockersHook,
  createBrowserEngine,
} from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const calls: string[] = [];
const ADS = /\/ads\//;
const hook: BrowserBlockersHook = {
  matchesNetworkBlock: (request, which) => which.ads && ADS.test(request.url),
  cosmeticCss: (pageUrl, which) => {
    calls.push(`css:${new URL(pageUrl).pathname}`);
    return which.ads ? '.banner { display: none !important; }' : '';
  },
  installConsentRejector: async (page) => {
    calls.push('consent');
    await page.addInitScript(() => {
      (window as unknown as { rejector: boolean }).rejector = true;
    });
    return { settled: async () => calls.push('settled') };
  },
};
const engine = createBrowserEngine({
  allowPrivateNetworks: true,
  blockers: hook,
});

before(async () => {
  site = await startFixtureSite();
  site.html(
    '/with-ads',
    `<div class="banner">AD</div><img src="/ads/pixel.png"><img src="/img/ok.png">
     <script>document.title = String(window.rejector === true);</script>`,
  );
});

after(async () => {
  await engine.close();
  await site.close();
});

test('with block_ads the hook blocks requests and removes matched elements from the HTML', async () => {
  site.resetCounters();
  const snapshot = await engine.render(renderPlan(site.url('/with-ads'), { blockAds: true }));
  assert.equal(site.hits('/ads/pixel.png'), 0);
  assert.equal(site.hits('/img/ok.png'), 1);
  assert.doesNotMatch(snapshot.html, /class="banner"/);
  assert.doesNotMatch(
    snapshot.html,
    /display: none !important/,
    'the rules stay out of the output',
  );
  assert.match(snapshot.html, /\/img\/ok\.png/);
});

test('a screenshot with block_ads hides matched elements through the rules', async () => {
  const snapshot = await engine.render(
    renderPlan(site.url('/with-ads'), { blockAds: true, screenshot: true }),
  );
  assert.ok(snapshot.screenshot && snapshot.screenshot.length > 0);
  assert.match(snapshot.html, /\.banner \{ display: none !important; \}/);
});

test('with block_cookie_banners the rejector runs before the page scripts', async () => {
  calls.length = 0;
  const snapshot = await engine.render(
    renderPlan(site.url('/with-ads'), { blockCookieBanners: true }),
  );
  assert.match(snapshot.html, /<title>true<\/title>/);
  assert.deepEqual(calls, ['consent', 'settled', 'css:/with-ads']);
});

test('without blocking options the hook is not consulted', async () => {
  site.resetCounters();
  calls.length = 0;
  await engine.render(renderPlan(site.url('/with-ads')));
  assert.equal(site.hits('/ads/pixel.png'), 1);
  assert.deepEqual(calls, []);
});
