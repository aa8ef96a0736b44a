/** Rendering with the real Chromium against pages on loopback. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { freePort } from '../../../helpers/free-port.js';
import { pngSize, renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const engine = createBrowserEngine({ allowPrivateNetworks: true, maxFullPageHeight: 3000 });

before(async () => {
  site = await startFixtureSite();
  site.html(
    '/js',
    '<div id="a"></div><script>document.getElementById("a").textContent = "injected-by-js";</script>',
  );
  site.html(
    '/long',
    `<body style="margin:0"><div style="height:2000px;background:#ccc">long</div></body>`,
  );
  site.html(
    '/very-long',
    `<body style="margin:0"><div style="height:9000px">very long</div></body>`,
  );
  site.html(
    '/dialogs',
    `<script>alert('a'); confirm('b'); prompt('c');
     window.open('/page'); window.open('/page', '_blank');</script><p id="after">after dialogs</p>`,
  );
  // A page that redefines, in its own world, what serialising it reads.
  site.html(
    '/lies',
    `<!doctype html><html><head><title>lies</title></head><body><p id="real">real text</p><script>
     const lie = 'L' + 'IE';
     Object.defineProperty(Element.prototype, 'outerHTML', { get: () => '<html>' + lie + '</html>' });
     window.XMLSerializer = function () { this.serializeToString = () => '<!' + lie + '>'; };
     </script></body></html>`,
  );
  site.route('/download', (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="x.bin"',
    });
    res.end(Buffer.alloc(1024));
  });
});

after(async () => {
  await engine.close();
  await site.close();
});

test('the rendered HTML contains content injected by JavaScript', async () => {
  const snapshot = await engine.render(renderPlan(site.url('/js')));
  assert.match(snapshot.html, /<div id="a">injected-by-js<\/div>/);
  assert.equal(snapshot.status, 200);
  assert.equal(snapshot.screenshot, undefined);
});

test("the HTML is the page's own even when its scripts redefine serialising", async () => {
  const snap = await engine.render(renderPlan(site.url('/lies')));
  assert.match(snap.html, /^<!DOCTYPE html><html><head><title>lies<\/title>/);
  assert.match(snap.html, /<p id="real">real text<\/p>/);
  assert.doesNotMatch(snap.html, /LIE/);
});

test('status and final URL come from the last main-frame response after redirects', async () => {
  const redirected = await engine.render(renderPlan(site.url('/redirect/chain?n=2')));
  assert.equal(redirected.finalUrl, site.url('/page'));
  assert.equal(redirected.status, 200);
  const missing = await engine.render(renderPlan(site.url('/status/404')));
  assert.equal(missing.status, 404);
});

test('a viewport screenshot is exactly window_width x window_height', async () => {
  const plan = renderPlan(site.url('/long'), {
    screenshot: true,
    windowWidth: 1024,
    windowHeight: 700,
  });
  const { screenshot } = await engine.render(plan);
  assert.deepEqual(pngSize(screenshot!), { width: 1024, height: 700 });
});

test('a full-page screenshot of a long page is taller than the viewport', async () => {
  const plan = renderPlan(site.url('/long'), { screenshotFullPage: true, windowHeight: 600 });
  const { screenshot } = await engine.render(plan);
  assert.deepEqual(pngSize(screenshot!), { width: 800, height: 2000 });
});

test('a full-page screenshot stops at maxFullPageHeight', async () => {
  const plan = renderPlan(site.url('/very-long'), { screenshotFullPage: true });
  const { screenshot } = await engine.render(plan);
  assert.deepEqual(pngSize(screenshot!), { width: 800, height: 3000 });
});

test('dialogs and popups neither hang the render nor stay open', async () => {
  // A dialog left open would block the script before the paragraph, and `load` with it.
  const snapshot = await engine.render(renderPlan(site.url('/dialogs'), { timeoutMs: 10_000 }));
  assert.match(snapshot.html, /<p id="after">after dialogs<\/p>/);
});

test('a download is refused as FETCH_FAILED instead of hanging', async () => {
  await assert.rejects(engine.render(renderPlan(site.url('/download'))), {
    code: 'FETCH_FAILED',
    message: 'Failed to fetch the page: the URL is a download',
  });
});

test('a refused connection is FETCH_FAILED with a readable reason', async () => {
  const port = await freePort();
  await assert.rejects(engine.render(renderPlan(`http://127.0.0.1:${port}/`)), {
    code: 'FETCH_FAILED',
    message: 'Failed to fetch the page: connection refused',
  });
});

test('a page slower than the budget is TIMED_OUT with the budget in its text', async () => {
  await assert.rejects(engine.render(renderPlan(site.url('/slow?ms=5000'), { timeoutMs: 1500 })), {
    code: 'TIMED_OUT',
    message: 'Timed out after 1500 ms',
  });
  // The engine is still usable afterwards.
  assert.equal((await engine.render(renderPlan(site.url('/page')))).status, 200);
});
