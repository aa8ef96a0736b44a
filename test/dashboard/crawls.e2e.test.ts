/**
 * The dashboard's crawls page in the real Chromium against the real service: a crawl started
 * through the SDK shows in the list with its progress (pages done of discovered, credits),
 * can be cancelled there, and its scraped pages are readable on its results page.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { type CrawlSite, startCrawlSite } from '../helpers/crawl-site.js';
import { buildDashboard, type DashboardBuild } from '../helpers/dashboard-build.js';
import { startService, type TestService } from '../helpers/service.js';
import { until } from '../helpers/until.js';

let service: TestService;
let site: CrawlSite;
let browser: Browser;
let page: Page;
let dashboard: DashboardBuild;

before(async () => {
  dashboard = await buildDashboard();
  site = await startCrawlSite({ pages: 300, delayMs: 200 });
  service = await startService({ credits: 10_000, env: { DASHBOARD_DIR: dashboard.dir } });
  browser = await chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
  page = await (await browser.newContext()).newPage();
});
after(async () => {
  await browser?.close();
  await service?.close();
  await site?.close();
  await dashboard?.remove();
});

test('the crawls page shows progress, cancels a crawl and shows its results', async () => {
  const fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
  const started = await fc.startCrawl(site.url('/'), {
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
    maxConcurrency: 2,
  });
  await until(
    async () => (await fc.getCrawlStatus(started.id, { autoPaginate: false })).completed >= 3,
    60_000,
  );

  await page.goto(`${service.baseUrl}/`);
  await page.getByLabel('API key').fill(service.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Crawls' }).click();
  const row = page.locator(`[data-crawl-id="${started.id}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /scraping/);
  assert.match((await row.textContent()) ?? '', /\d+ of \d+/);

  await row.getByRole('button', { name: 'Cancel' }).click();
  await row.getByText('cancelled').waitFor();
  assert.equal((await fc.getCrawlStatus(started.id, { autoPaginate: false })).status, 'cancelled');

  await row.getByRole('link', { name: site.url('/') }).click();
  await page.getByTestId('crawl-progress').waitFor();
  assert.match(
    (await page.getByTestId('crawl-progress').textContent()) ?? '',
    /^cancelled: \d+ of \d+ pages/,
  );
  const items = page.getByTestId('crawl-pages').locator('li');
  assert.ok((await items.count()) >= 3);
  assert.match((await page.getByTestId('crawl-pages').textContent()) ?? '', /Home|Page \d+/);
});
