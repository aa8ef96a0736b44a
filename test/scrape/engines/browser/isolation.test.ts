/**
 * Warm pages are reused across an account's requests (the pool's key names the account):
 * this proves that nothing one request leaves in the browser is visible to the next one on
 * the same reused page, whether its reset emptied the document in place or navigated.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { until } from '../../../helpers/until.js';
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

/** A page that never stops writing: timers, animation frames, and a late answer's callback. */
const BUSY = `<!doctype html><html><body><p id="out">busy</p><iframe src="/busy-frame"></iframe><script>
let n = 0;
const write = (key) => {
  n += 1;
  document.cookie = key + '=' + n + '; max-age=3600; path=/';
  localStorage.setItem(key, String(n));
  sessionStorage.setItem(key, String(n));
};
setInterval(() => write('interval'), 1);
const frame = () => { write('frame'); requestAnimationFrame(frame); };
requestAnimationFrame(frame);
fetch('/late').then(() => write('late'), () => write('late-failed'));
addEventListener('pagehide', () => write('pagehide'));
setTimeout(() => { document.getElementById('out').id = 'done'; }, 50);
</script></body></html>`;
const BUSY_FRAME = `<!doctype html><script>setInterval(() => localStorage.setItem('in-frame', '1'), 1);</script>`;

/** A page whose dedicated worker keeps writing to IndexedDB: workers outlive document.open(). */
const WORKER_PAGE = `<!doctype html><html><body><p id="out">worker</p><script>
const worker = new Worker('/writer.js');
worker.onmessage = () => { document.getElementById('out').id = 'done'; };
</script></body></html>`;
const WRITER = `let n = 0;
const open = indexedDB.open('worker-db', 1);
open.onupgradeneeded = () => open.result.createObjectStore('s');
open.onsuccess = () => {
  const db = open.result;
  postMessage('started');
  setInterval(() => { n += 1; db.transaction('s', 'readwrite').objectStore('s').put(n, 'n'); }, 1);
};`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The engine's status once every page is back (a page holds its slot until it is reset). */
async function settledStatus() {
  await until(() => engine.status().pagesInUse === 0);
  return engine.status();
}

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
  site.html('/busy', BUSY);
  site.html('/busy-frame', BUSY_FRAME);
  site.route('/late', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'late=1; path=/' });
      res.end('late');
    }, 1_000);
  });
  site.html('/worker-page', WORKER_PAGE);
  site.route('/referer', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><pre id="referer">[${req.headers.referer ?? ''}]</pre>`);
  });
  site.route('/writer.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(WRITER);
  });
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

test('a page that never stops writing is emptied where it is, and writes nothing after', async () => {
  // An account of its own: a page of its own, without the service workers of the tests above.
  const account = { isolationKey: 'busy' };
  const before = await settledStatus();
  await engine.render(
    renderPlan(site.url('/busy'), { instructions: [{ wait: '#done' }] }, account),
  );
  // Long enough for the late answer (1 s) and many timer ticks after the reset.
  await sleep(1_500);
  const probe = await engine.render(
    renderPlan(site.url('/probe'), { instructions: [{ wait: '#done' }] }, account),
  );
  const after = await settledStatus();
  assert.equal(after.contextsCreated, before.contextsCreated + 1, 'one warm page for both');
  // The busy page has no worker: its reset emptied the document without a navigation.
  assert.ok(after.resetsInPlace > before.resetsInPlace, JSON.stringify(after));
  const found = JSON.parse(/<pre id="done">(.*?)<\/pre>/.exec(probe.html)?.[1] ?? 'null');
  assert.equal(found.cookie, '');
  assert.equal(found.local, 0);
  assert.equal(found.session, 0);
  assert.equal(found.name, '');
});

test('a page whose worker keeps writing goes to about:blank, which ends the worker', async () => {
  const account = { isolationKey: 'worker' };
  const before = await settledStatus();
  await engine.render(
    renderPlan(site.url('/worker-page'), { instructions: [{ wait: '#done' }] }, account),
  );
  const reset = await settledStatus();
  assert.equal(reset.resetsInPlace, before.resetsInPlace, 'the worker page navigated away');
  await sleep(500);
  const probe = await engine.render(
    renderPlan(site.url('/probe'), { instructions: [{ wait: '#done' }] }, account),
  );
  const after = await settledStatus();
  assert.equal(after.contextsCreated, before.contextsCreated + 1, 'one warm page for both');
  const found = JSON.parse(/<pre id="done">(.*?)<\/pre>/.exec(probe.html)?.[1] ?? 'null');
  assert.deepEqual(found.idb, []);
});

test('the next render does not send the page left in place as its Referer', async () => {
  const account = { isolationKey: 'referer' };
  await engine.render(
    renderPlan(site.url('/busy'), { instructions: [{ wait: '#done' }] }, account),
  );
  await settledStatus();
  const next = await engine.render(renderPlan(site.url('/referer'), {}, account));
  assert.match(next.html, /<pre id="referer">\[\]<\/pre>/);
});
