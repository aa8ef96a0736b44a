import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { DEFAULTS } from '../../../src/config.js';
import {
  type ConsentRejectorAssets,
  installConsentRejector,
  loadConsentRejectorAssets,
} from '../../../src/scrape/blockers/consent-rejector.js';
import { CHROMIUM_ARGS } from '../../../src/scrape/engines/browser/chromium-process.js';

// OneTrust's banner as its SDK renders it: autoconsent's Onetrust rule detects
// #onetrust-banner-sdk and, to opt out, clicks a visible #onetrust-reject-all-handler.
const ONETRUST_PAGE = `<!doctype html><html><head><title>Consent fixture</title></head><body>
<main><h1>Article</h1><p>Main content.</p></main>
<div id="onetrust-consent-sdk">
  <div id="onetrust-banner-sdk" class="otFlat" role="region" aria-label="Cookie banner"
       style="position:fixed;bottom:0;left:0;right:0;padding:20px;background:#fff;border-top:1px solid #000">
    <p id="onetrust-policy-text">We use cookies to improve your experience.</p>
    <div id="onetrust-button-group">
      <button id="onetrust-pc-btn-handler">Cookie Settings</button>
      <button id="onetrust-reject-all-handler">Reject All</button>
      <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
    </div>
  </div>
</div>
<script>
  function record(which) {
    fetch('/clicked?button=' + which, { method: 'POST' });
    document.getElementById('onetrust-banner-sdk').style.display = 'none';
  }
  document.getElementById('onetrust-accept-btn-handler').onclick = function () { record('accept'); };
  document.getElementById('onetrust-reject-all-handler').onclick = function () { record('reject'); };
</script>
</body></html>`;

const PLAIN_PAGE = '<!doctype html><html><body><main><h1>No banner here</h1></main></body></html>';

describe('installConsentRejector (real Chromium)', () => {
  let server: Server;
  let base: string;
  let browser: Browser;
  let assets: ConsentRejectorAssets;
  const clicks: string[] = [];

  before(async () => {
    assets = loadConsentRejectorAssets();
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/clicked') {
        clicks.push(url.searchParams.get('button') ?? '?');
        res.end('ok');
        return;
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(url.pathname === '/plain' ? PLAIN_PAGE : ONETRUST_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function loopbackOnlyContext(): Promise<BrowserContext> {
    const context = await browser.newContext();
    // Tests never leave the machine: anything not on loopback is aborted.
    await context.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') return route.continue();
      return route.abort('blockedbyclient');
    });
    return context;
  }

  it('rejects a OneTrust banner and never clicks accept', async () => {
    clicks.length = 0;
    const context = await loopbackOnlyContext();
    try {
      const page = await context.newPage();
      const rejection = await installConsentRejector(page, assets);
      const started = performance.now();
      await page.goto(`${base}/`, { waitUntil: 'load' });
      const outcome = await rejection.settled(15_000);
      const ms = performance.now() - started;
      // The click's fetch may land just after autoconsent reports.
      for (let i = 0; i < 50 && clicks.length === 0; i++) await page.waitForTimeout(50);
      assert.deepEqual(clicks, ['reject']);
      assert.ok(outcome.detected.includes('Onetrust'), `detected: ${outcome.detected.join(',')}`);
      assert.equal(outcome.optOut, true);
      assert.equal(outcome.timedOut, false);
      assert.equal(await page.locator('#onetrust-banner-sdk').isVisible(), false);
      console.log(`# consent rejected in ${ms.toFixed(0)} ms`);
    } finally {
      await context.close();
    }
  });

  it('settles without clicking when the page has no consent pop-up', async () => {
    clicks.length = 0;
    const context = await loopbackOnlyContext();
    try {
      const page = await context.newPage();
      const rejection = await installConsentRejector(page, assets);
      await page.goto(`${base}/plain`, { waitUntil: 'load' });
      const started = performance.now();
      const outcome = await rejection.settled(20_000, 1000);
      assert.ok(performance.now() - started < 5000);
      assert.equal(outcome.timedOut, false);
      assert.deepEqual(outcome.detected, []);
      assert.equal(outcome.optOut, null);
      assert.deepEqual(clicks, []);
    } finally {
      await context.close();
    }
  });

  it('gives up at the budget and reports the timeout', async () => {
    const context = await loopbackOnlyContext();
    try {
      const page = await context.newPage();
      const rejection = await installConsentRejector(page, assets);
      // Not navigated: autoconsent never runs, so only the budget can end the wait.
      const started = performance.now();
      const outcome = await rejection.settled(300);
      assert.equal(outcome.timedOut, true);
      assert.ok(performance.now() - started < 2000);
    } finally {
      await context.close();
    }
  });
});
