/**
 * Warm pages are reused across requests (and so across accounts): this proves that nothing
 * one request leaves in the browser is visible to the next one on the same reused page.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

const PLANT = `<!doctype html><html><body><p id="out">planting</p><script>
(async () => {
  document.cookie = 'planted=1; max-age=3600; path=/';
  localStorage.setItem('planted', '1');
  sessionStorage.setItem('planted', '1');
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('planted-db', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => { open.result.close(); resolve(); };
    open.onerror = reject;
  });
  const cache = await caches.open('planted-cache');
  await cache.put('/cache-entry', new Response('x'));
  await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  await fetch('/cacheable');
  window.name = 'planted';
  history.pushState({}, '', '?pushed');
  document.getElementById('out').id = 'done';
})().catch((e) => { document.body.append('plant failed: ' + e); });
</script></body></html>`;

const PROBE = `<!doctype html><html><body><pre id="out"></pre><script>
(async () => {
  const dbs = (await indexedDB.databases()).map((d) => d.name);
  const regs = await navigator.serviceWorker.getRegistrations();
  const found = {
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
    idb: dbs,
    caches: await caches.keys(),
    sw: regs.length,
    name: window.name,
    history: history.length,
  };
  await fetch('/cacheable');
  const out = document.getElementById('out');
  out.textContent = JSON.stringify(found);
  out.id = 'done';
})();
</script></body></html>`;

let site: FixtureSite;
/** A 1x1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE_PAGE = `<!doctype html><html><body><img id="img" src="/cacheable.png" width="10" height="10">
<script>document.getElementById('img').decode().then(() => {
  const done = document.createElement('p'); done.id = 'done'; done.textContent = 'done'; document.body.append(done);
});</script></body></html>`;

const engine = createBrowserEngine({ allowPrivateNetworks: true, serviceWorkers: 'allow' });

before(async () => {
  site = await startFixtureSite();
  site.html('/plant', PLANT);
  site.html('/probe', PROBE);
  site.route('/sw.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end("self.addEventListener('fetch', () => {});");
  });
  site.route('/cacheable.png', (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' });
    res.end(PIXEL);
  });
  site.html('/image-page', IMAGE_PAGE);
  site.route('/cacheable', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' });
    res.end('cached');
  });
});

after(async () => {
  await engine.close();
  await site.close();
});

test('a reused page shows nothing the previous request planted', async () => {
  const planted = await engine.render(
    renderPlan(site.url('/plant'), { instructions: [{ wait: '#done' }] }),
  );
  assert.doesNotMatch(planted.html, /plant failed: [A-Z]/);
  const before = engine.status();

  const probe = await engine.render(
    renderPlan(site.url('/probe'), { instructions: [{ wait: '#done' }] }),
  );
  // The probe ran on the same warm page: no new context was created for it.
  assert.equal(engine.status().contextsCreated, before.contextsCreated);
  const found = JSON.parse(/<pre id="done">(.*?)<\/pre>/.exec(probe.html)?.[1] ?? 'null');
  assert.deepEqual(found, {
    cookie: '',
    local: 0,
    session: 0,
    idb: [],
    caches: [],
    sw: 0,
    name: '',
    // The reset's about:blank is the only earlier entry; without the reset it would be 4.
    history: 2,
  });
  // The HTTP cache did not answer for the probe: the server saw both fetches.
  assert.equal(site.hits('/cacheable'), 2);
});

test('an origin reached only through a redirect is wiped as well', async () => {
  const other = site.origin.replace('127.0.0.1', 'localhost');
  const via = site.url(`/redirect/to?url=${encodeURIComponent(`${other}/plant`)}`);
  const planted = await engine.render(renderPlan(via, { instructions: [{ wait: '#done' }] }));
  assert.equal(planted.finalUrl, `${other}/plant?pushed`);
  const probe = await engine.render(
    renderPlan(`${other}/probe`, { instructions: [{ wait: '#done' }] }),
  );
  const found = JSON.parse(/<pre id="done">(.*?)<\/pre>/.exec(probe.html)?.[1] ?? 'null');
  assert.equal(found.cookie, '');
  assert.equal(found.local, 0);
  assert.equal(found.session, 0);
  assert.deepEqual(found.idb, []);
  assert.deepEqual(found.caches, []);
  assert.equal(found.sw, 0);
});

test('a cacheable image of one request is fetched again by the next (neither cache keeps it)', async () => {
  // Chromium's HTTP cache is on during renders (http-cache.ts); the reset clears it and
  // evicts Blink's in-memory cache, so the next request on the same warm page loads the
  // image from the site again.
  const hits = site.hits('/cacheable.png');
  for (let i = 0; i < 2; i += 1) {
    await engine.render(renderPlan(site.url('/image-page'), { instructions: [{ wait: '#done' }] }));
  }
  assert.equal(site.hits('/cacheable.png') - hits, 2);
});
