import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { DEFAULTS } from '../../../src/config.js';
import {
  type ConsentRejectorAssets,
  installConsentRejector,
  loadConsentRejectorAssets,
} from '../../../src/scrape/blockers/consent-rejector.js';
import { CHROMIUM_ARGS } from '../../../src/scrape/engines/browser/chromium-process.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { oneTrustBanner } from '../../helpers/fixtures/consent-banners.js';

const ONETRUST_PAGE = `<!doctype html><html><head><title>Consent fixture</title></head><body>
<main><h1>Article</h1><p>Main content.</p></main>
${oneTrustBanner({
  style:
    'position:fixed;bottom:0;left:0;right:0;padding:20px;background:#fff;border-top:1px solid #000',
  reportTo: '/clicked?button=',
})}
</body></html>`;

const PLAIN_PAGE = '<!doctype html><html><body><main><h1>No banner here</h1></main></body></html>';

describe('installConsentRejector (real Chromium)', () => {
  let site: FixtureSite;
  let base: string;
  let browser: Browser;
  let assets: ConsentRejectorAssets;
  const clicks: string[] = [];

  before(async () => {
    assets = loadConsentRejectorAssets();
    site = await startFixtureSite();
    site.html('/', ONETRUST_PAGE);
    site.html('/plain', PLAIN_PAGE);
    site.route('/clicked', (_req, res, url) => {
      clicks.push(url.searchParams.get('button') ?? '?');
      res.end('ok');
    });
    base = site.origin;
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
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
      const outcome = await rejection.settled(20_000, 1000);
      // Not the 20 s budget: the quiet period after detection found nothing ended the wait.
      assert.equal(outcome.timedOut, false);
      assert.deepEqual(outcome.detected, []);
      assert.equal(outcome.optOut, null);
      assert.deepEqual(clicks, []);
    } finally {
      await context.close();
    }
  });

  it('on a page without a consent platform, sends one message per lifecycle step the run reads, and no eval requests', async () => {
    const context = await loopbackOnlyContext();
    try {
      const page = await context.newPage();
      // The rejector's own binding, observed: every message autoconsent sends through it.
      const sent: { type?: string; lifecycle?: string }[] = [];
      type Message = { type?: string; state?: { lifecycle?: string } };
      type Callback = (source: unknown, message: Message) => unknown;
      const expose = page.exposeBinding.bind(page) as (
        name: string,
        c: Callback,
      ) => Promise<unknown>;
      page.exposeBinding = ((name: string, callback: Callback): Promise<unknown> =>
        expose(name, (source, message) => {
          sent.push({ type: message.type, lifecycle: message.state?.lifecycle });
          return callback(source, message);
        })) as typeof page.exposeBinding;
      const rejection = await installConsentRejector(page, assets);
      await page.goto(`${base}/plain`, { waitUntil: 'load' });
      // Detection starts, finds nothing and retries (every 500 ms) during the quiet period.
      const outcome = await rejection.settled(20_000, 1000);
      assert.deepEqual(outcome.detected, []);
      assert.deepEqual(
        sent.filter((m) => m.type !== 'report'),
        [{ type: 'init', lifecycle: undefined }],
        'an eval rule runs in the page, not as a message with its answer',
      );
      // Each state change (every detection retry) was a report: only the ones read go out.
      assert.deepEqual(
        sent.filter((m) => m.type === 'report').map((m) => m.lifecycle),
        ['started'],
      );
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
      const outcome = await rejection.settled(300);
      assert.equal(outcome.timedOut, true);
      assert.equal(outcome.done, false);
    } finally {
      await context.close();
    }
  });
});
