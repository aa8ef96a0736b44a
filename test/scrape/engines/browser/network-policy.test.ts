/**
 * The one route handler: blocked resource types never reach the server, the main document
 * is never blocked by type, and the SSRF policy applies to navigation, redirects and every
 * sub-request. Loopback hosts are told apart by a substituted address policy: 127.0.0.1 is
 * "public", `localhost` resolves to 127.0.0.2, which is not.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { blockedPlaywrightTypes } from '../../../../src/scrape/engines/browser/resource-types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let privateOrigin: string;
const engine = createBrowserEngine({
  allowPrivateNetworks: false,
  guard: {
    lookup: async (host) => [{ address: host === 'localhost' ? '127.0.0.2' : host, family: 4 }],
    isAllowedAddress: (ip) => ip === '127.0.0.1',
  },
});

const RESOURCES = `<!doctype html><html><head>
<link rel="stylesheet" href="/r/style.css"><script src="/r/app.js"></script>
<link rel="manifest" href="/r/manifest.json"></head><body>
<img src="/r/pic.png"><video src="/r/clip.mp4" autoplay muted></video>
<script>fetch('/r/data.json'); const x = new XMLHttpRequest(); x.open('GET', '/r/xhr'); x.send();
navigator.sendBeacon('/r/beacon', 'x');</script></body></html>`;

before(async () => {
  site = await startFixtureSite();
  privateOrigin = site.origin.replace('127.0.0.1', 'localhost');
  site.html('/resources', RESOURCES);
  site.html(
    '/leaky',
    `<img src="${privateOrigin}/secret.png">
     <img src="/redirect/to?url=${encodeURIComponent(`${privateOrigin}/secret-redirect.png`)}">
     <script>fetch('${privateOrigin}/secret-fetch').catch(() => {});
     try { new WebSocket('${privateOrigin.replace('http', 'ws')}/secret-ws'); } catch {}</script>
     <iframe src="${privateOrigin}/secret-frame"></iframe><p>leaky page</p>`,
  );
});

after(async () => {
  await engine.close();
  await site.close();
});

test('blocked resource types are never requested, the document still is', async () => {
  site.resetCounters();
  const plan = renderPlan(site.url('/resources'), {
    blockResources: ['stylesheet', 'script', 'image', 'media', 'fetch', 'xhr', 'manifest'],
  });
  const snapshot = await engine.render(plan);
  assert.equal(snapshot.status, 200);
  assert.equal(site.hits('/resources'), 1);
  for (const path of [
    '/r/style.css',
    '/r/app.js',
    '/r/pic.png',
    '/r/clip.mp4',
    '/r/manifest.json',
  ]) {
    assert.equal(site.hits(path), 0, path);
  }
});

test('unblocked types are requested (the counter would see blocked ones)', async () => {
  site.resetCounters();
  await engine.render(renderPlan(site.url('/resources'), { blockResources: ['image'] }));
  assert.equal(site.hits('/r/pic.png'), 0);
  assert.equal(site.hits('/r/style.css'), 1);
  assert.equal(site.hits('/r/app.js'), 1);
});

test('beacons go with xhr/fetch/other and websockets with xhr/fetch', () => {
  assert.ok(blockedPlaywrightTypes(['fetch']).has('ping'));
  assert.ok(blockedPlaywrightTypes(['xhr']).has('websocket'));
  assert.ok(!blockedPlaywrightTypes(['image']).has('ping'));
  assert.ok(!blockedPlaywrightTypes(['other']).has('websocket'));
  assert.ok(!blockedPlaywrightTypes(['script']).has('document'));
});

test('a target on a non-public address is URL_NOT_ALLOWED and never requested', async () => {
  site.resetCounters();
  await assert.rejects(engine.render(renderPlan(`${privateOrigin}/page`)), {
    code: 'URL_NOT_ALLOWED',
    message: 'URL is not allowed: localhost resolves to a non-public address',
  });
  assert.equal(site.totalHits(), 0);
});

test('a redirect of the main document to a non-public address is refused', async () => {
  site.resetCounters();
  const url = site.url(`/redirect/to?url=${encodeURIComponent(`${privateOrigin}/page`)}`);
  await assert.rejects(engine.render(renderPlan(url)), { code: 'URL_NOT_ALLOWED' });
  assert.equal(site.hits('/page'), 0);
});

/** A page that moves itself to `to` once loaded, while a settled render waits. */
const movesTo = (to: string) =>
  `<!doctype html><p>before the move</p><script>addEventListener('load', () => setTimeout(() => { location.href = ${JSON.stringify(to)}; }, 50));</script>`;

test('a page moving itself to a non-public address fails as a redirect there does; nothing is asked there', async () => {
  site.html('/moves/private', movesTo(`${privateOrigin}/page`));
  site.resetCounters();
  await assert.rejects(engine.render(renderPlan(site.url('/moves/private'))), {
    code: 'FETCH_FAILED',
    message: 'Failed to fetch the page: the page moved to localhost, a non-public address',
  });
  assert.equal(site.hits('/page'), 0);
});

test('a page moving itself asks followRedirect (robots.txt) first; a refused move is not made and fails', async () => {
  site.html('/moves/disallowed', movesTo('/moved/disallowed'));
  site.html('/moves/allowed', movesTo('/moved/allowed'));
  site.html('/moved/allowed', '<p>after the move</p>');
  site.resetCounters();
  const asked: string[] = [];
  const follow = async (url: URL) => {
    asked.push(url.pathname);
    return url.pathname === '/moved/allowed';
  };
  await assert.rejects(
    engine.render({ ...renderPlan(site.url('/moves/disallowed')), followRedirect: follow }),
    {
      code: 'FETCH_FAILED',
      message: `Failed to fetch the page: redirect to ${site.url('/moved/disallowed')} not followed`,
    },
  );
  assert.equal(site.hits('/moved/disallowed'), 0);
  const followed = await engine.render({
    ...renderPlan(site.url('/moves/allowed')),
    followRedirect: follow,
  });
  assert.equal(followed.finalUrl, site.url('/moved/allowed'));
  assert.match(followed.html, /after the move/);
  assert.deepEqual(asked, ['/moved/disallowed', '/moved/allowed']);
});

test('sub-requests, redirects, frames and sockets to non-public addresses are aborted', async () => {
  site.resetCounters();
  const snapshot = await engine.render(renderPlan(site.url('/leaky')));
  assert.match(snapshot.html, /leaky page/);
  for (const path of [
    '/secret.png',
    '/secret-redirect.png',
    '/secret-fetch',
    '/secret-ws',
    '/secret-frame',
  ]) {
    assert.equal(site.hits(path), 0, path);
  }
  assert.equal(site.hits('/redirect/to'), 1);
});
