/**
 * The three blockers on the browser engine with the real filter engines and autoconsent, as
 * the composition root wires them: a page without a consent platform is not held for one and
 * keeps its warm page; a banner that shows up, at load or later from a script, is rejected.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { browserBlockersHook } from '../../../../src/compose/scrape-parts.js';
import {
  type ConsentRejector,
  installConsentRejector,
  loadConsentRejectorAssets,
} from '../../../../src/scrape/blockers/consent-rejector.js';
import { loadFilterEngines } from '../../../../src/scrape/blockers/filter-engines.js';
import {
  type BrowserBlockersHook,
  createBrowserEngine,
} from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { oneTrustBanner } from '../../../helpers/fixtures/consent-banners.js';
import { builtFilterDir } from '../../blockers/built-filters.js';
import { renderPlan } from './plan-fixture.js';

const ALL = { blockAds: true, blockCookieBanners: true, blockChatWidgets: true };
const BANNER = oneTrustBanner({
  style: 'position:fixed;bottom:0;left:0;right:0;height:100px;background:#fff',
  reportTo: '/consent/',
});

let site: FixtureSite;
let engine: ReturnType<typeof createBrowserEngine>;
/** Every rejector the engine installed, newest last. */
const installed: ConsentRejector[] = [];

before(async () => {
  const assets = loadConsentRejectorAssets();
  const real = browserBlockersHook(await loadFilterEngines(builtFilterDir()), assets);
  const hook: BrowserBlockersHook = {
    ...real,
    installConsentRejector: async (page) => {
      const rejector = await installConsentRejector(page, assets);
      installed.push(rejector);
      return rejector;
    },
  };
  engine = createBrowserEngine({
    allowPrivateNetworks: true,
    maxConcurrentPages: 1,
    blockers: hook,
  });
  site = await startFixtureSite();
  site.html(
    '/plain',
    `<main><h1>No banner here</h1><p>Text.</p></main>
     <script>document.title = typeof autoconsentReceiveMessage;</script>`,
  );
  site.html('/banner', `<main><h1>Article</h1></main>${BANNER}`);
  // The platform's markup arrives from a script after the load, as CMP loaders add it.
  site.html(
    '/late-banner',
    `<main><h1>Article</h1></main>
     <script>
       addEventListener('load', () => setTimeout(() => {
         const box = document.createElement('div');
         box.innerHTML = ${JSON.stringify(BANNER.replace(/<script>[\s\S]*<\/script>/, ''))};
         document.body.append(box);
         ${/<script>([\s\S]*)<\/script>/.exec(BANNER)?.[1]}
       }, 300));
     </script>`,
  );
  for (const path of ['/consent/accept', '/consent/reject']) {
    site.route(path, (_req, res) => res.writeHead(204).end());
  }
});

after(async () => {
  await engine?.close();
  await site?.close();
});

test('a page without a consent platform is not held by the rejector and keeps its warm page', async () => {
  await engine.render(renderPlan(site.url('/plain'), ALL));
  const contexts = engine.status().contextsCreated;
  const rejectors = installed.length;
  for (let i = 0; i < 2; i += 1) {
    const snapshot = await engine.render(renderPlan(site.url('/plain'), ALL));
    assert.match(snapshot.html, /No banner here/);
    // The rejector's script runs in the rendered page: it is there, and switched on.
    assert.match(snapshot.html, /<title>function<\/title>/);
    const { outcome } = installed.at(-1) as ConsentRejector;
    assert.deepEqual(outcome.detected, []);
    assert.equal(outcome.popupShown, false);
    assert.equal(outcome.timedOut, false, 'the render waited out the consent budget');
  }
  assert.equal(engine.status().contextsCreated, contexts, 'a blocked render took a new page');
  assert.equal(installed.length, rejectors, 'the rejector was installed again');
});

test('a render without cookie-banner blocking never gets the rejector’s page or script', async () => {
  const snapshot = await engine.render(renderPlan(site.url('/plain'), { blockAds: true }));
  assert.match(snapshot.html, /<title>undefined<\/title>/);
});

test('a banner present at load is rejected on each render of a warm page', async () => {
  site.resetCounters();
  await engine.render(renderPlan(site.url('/banner'), ALL));
  const contexts = engine.status().contextsCreated;
  const snapshot = await engine.render(renderPlan(site.url('/banner'), ALL));
  assert.doesNotMatch(snapshot.html, /id="onetrust-banner-sdk"/, 'the banner is in the output');
  assert.ok(installed.at(-1)?.outcome.detected.includes('Onetrust'));
  assert.equal(site.hits('/consent/reject'), 2);
  assert.equal(site.hits('/consent/accept'), 0);
  assert.equal(engine.status().contextsCreated, contexts, 'a rejecting render took a new page');
});

test('a banner a script adds after the load, before the output is taken, is rejected', async () => {
  site.resetCounters();
  const snapshot = await engine.render(
    // No step waits for it: the default settle waits for the page's 300 ms timer, and the
    // rejector may have clicked "reject" before any step could see the banner.
    renderPlan(site.url('/late-banner'), ALL),
  );
  assert.doesNotMatch(snapshot.html, /id="onetrust-banner-sdk"/, 'the banner is in the output');
  const { outcome } = installed.at(-1) as ConsentRejector;
  assert.ok(outcome.detected.includes('Onetrust'), `detected: ${outcome.detected.join(',')}`);
  assert.equal(outcome.optOut, true);
  assert.equal(site.hits('/consent/reject'), 1);
  assert.equal(site.hits('/consent/accept'), 0);
});
