/**
 * The dashboard's crawls in the real Chromium against the real service and a loopback site:
 * the list shows each crawl's start URL, time and id; the detail follows a running crawl
 * without a reload, lists its robots-blocked pages, cancels it, shows each page's Document
 * and exports its results (JSON lines, a zip of Markdown); the Playground starts a scrape, a
 * crawl, a map and a batch through the Firecrawl door and shows what each answered.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { strFromU8, unzipSync } from 'fflate';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { type CrawlSite, startCrawlSite } from '../helpers/crawl-site.js';
import { buildDashboard, type DashboardBuild } from '../helpers/dashboard-build.js';
import { startService, type TestService } from '../helpers/service.js';
import { signInByStorage } from './console-views.js';

let service: TestService;
let site: CrawlSite;
let browser: Browser;
let page: Page;
let dashboard: DashboardBuild;
let fc: Firecrawl;
/** The slow crawl the list and detail tests watch, then cancel. */
let crawlId: string;

before(async () => {
  dashboard = await buildDashboard();
  // Slow pages and a robots.txt rule: the crawl runs long enough to be watched and cancelled.
  site = await startCrawlSite({
    pages: 300,
    delayMs: 200,
    robots: 'User-agent: *\nDisallow: /p/2\n',
  });
  service = await startService({ credits: 10_000, env: { DASHBOARD_DIR: dashboard.dir } });
  browser = await chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  page.setDefaultTimeout(30_000);
  await signInByStorage(page, service.apiKey);
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
  const started = await fc.startCrawl(site.url('/'), {
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
    maxConcurrency: 2,
  });
  crawlId = started.id;
});
after(async () => {
  await browser?.close();
  await service?.close();
  await site?.close();
  await dashboard?.remove();
});

const progress = async () => (await page.getByTestId('crawl-progress').textContent()) ?? '';

test('the crawls list shows each crawl with its start URL, start time and id', async () => {
  await page.goto(`${service.baseUrl}/#/crawls`);
  const row = page.locator(`[data-crawl-id="${crawlId}"]`);
  await row.waitFor();
  assert.equal(await row.getByTestId('crawl-id').textContent(), crawlId);
  assert.ok(await row.getByRole('link', { name: site.url('/') }).isVisible());
  assert.match((await row.getByTestId('crawl-started').textContent()) ?? '', /\d{1,2}:\d{2}/);
  assert.match((await row.textContent()) ?? '', /scraping/);
});

test('the crawl detail refreshes while the crawl runs, lists robots-blocked pages and cancels it', async () => {
  await page.goto(`${service.baseUrl}/#/crawls/${crawlId}`);
  await page.getByTestId('crawl-progress').waitFor();
  const first = await progress();
  assert.match(first, /^scraping: \d+ of \d+ pages/);
  // No reload: the page asks again by itself while the crawl runs.
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="crawl-progress"]')?.textContent !== before,
    first,
  );
  await page.getByTestId('crawl-robots-blocked').getByText(site.url('/p/2')).waitFor();

  await page.getByRole('button', { name: 'Cancel crawl' }).click();
  await page.getByText(/^cancelled: \d+ of \d+ pages/).waitFor();
  assert.equal((await fc.getCrawlStatus(crawlId, { autoPaginate: false })).status, 'cancelled');
  assert.equal(await page.getByRole('button', { name: 'Cancel crawl' }).count(), 0);

  const item = page.getByTestId('crawl-page').first();
  await item.getByRole('button', { name: 'Show result' }).click();
  const preview = item.getByTestId('document-preview');
  assert.match((await preview.locator('article.markdown').textContent()) ?? '', /Home|Page \d+/);
  await preview.getByLabel('JSON').check();
  assert.match((await preview.getByTestId('preview-json').textContent()) ?? '', /"sourceURL"/);
});

test('the export downloads every page as JSON lines and the Markdown as a zip of files', async () => {
  await page.goto(`${service.baseUrl}/#/crawls/${crawlId}`);
  await page.getByText(/^cancelled: \d+ of \d+ pages/).waitFor();
  const status = await fc.getCrawlStatus(crawlId, { autoPaginate: true });
  const scraped = status.data.length;
  assert.ok(scraped >= 1);

  const [lines] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON lines' }).click(),
  ]);
  assert.equal(lines.suggestedFilename(), `crawl-${crawlId}.jsonl`);
  const text = await readFile(await lines.path(), 'utf8');
  const docs = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { markdown: string; metadata: { sourceURL: string } });
  assert.equal(docs.length, scraped);
  assert.deepEqual(
    docs.map((d) => d.metadata.sourceURL).sort(),
    status.data.map((d) => d.metadata?.sourceURL).sort(),
  );

  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export Markdown (zip)' }).click(),
  ]);
  const files = unzipSync(new Uint8Array(await readFile(await zip.path())));
  const names = Object.keys(files);
  assert.equal(names.length, scraped);
  assert.ok(names.every((n) => n.endsWith('.md')));
  const markdown = new Set(docs.map((d) => d.markdown));
  for (const name of names) assert.ok(markdown.has(strFromU8(files[name] as Uint8Array)), name);
});

test('the Playground scrapes, crawls, maps and batches through the Firecrawl door', async () => {
  await page.goto(`${service.baseUrl}/#/playground`);
  await page.getByLabel('Firecrawl API (/v2)').check();
  const result = page.getByTestId('door-result');

  await page.getByLabel('Page URL').fill(site.url('/p/5'));
  await page.getByRole('button', { name: 'POST /v2/scrape' }).click();
  await page.locator('[data-testid="door-result"][data-kind="scrape"]').waitFor();
  assert.match((await result.locator('article.markdown').textContent()) ?? '', /PAGE-5/);
  assert.ok(Number(await result.getByTestId('door-credits').textContent()) > 0);

  await page.getByLabel('Map a site').check();
  await page.getByLabel('Site URL').fill(site.url('/'));
  await page.getByRole('button', { name: 'POST /v2/map' }).click();
  await page.locator('[data-testid="door-result"][data-kind="map"]').waitFor();
  assert.match((await result.getByTestId('door-map-links').textContent()) ?? '', /\/p\/0/);

  await page.getByLabel('Batch of pages').check();
  await page.getByLabel('URLs, one a line').fill(`${site.url('/p/7')}\n${site.url('/p/8')}`);
  await page.getByRole('button', { name: 'POST /v2/batch/scrape' }).click();
  await page
    .getByTestId('door-job-status')
    .getByText(/^completed: 2 of 2 pages/)
    .waitFor();
  assert.match((await result.getByTestId('door-job-pages').textContent()) ?? '', /Page 7/);

  await page.getByLabel('Crawl a site').check();
  await page.getByLabel('Site URL').fill(site.url('/p/9'));
  await page.getByLabel('Pages at most').fill('2');
  await page.getByRole('button', { name: 'POST /v2/crawl' }).click();
  await page
    .getByTestId('door-job-status')
    .getByText(/^completed: \d+ of \d+ pages/)
    .waitFor();
  const started = (await result.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).textContent()) ?? '';
  const crawled = await fc.getCrawlStatus(started, { autoPaginate: false });
  assert.deepEqual([crawled.status, crawled.data.length], ['completed', 2]);
  assert.match((await result.getByTestId('door-job-pages').textContent()) ?? '', /Page 9/);
});

test('the detail of a crawl that does not exist says so', async () => {
  await page.goto(`${service.baseUrl}/#/crawls/no-such-crawl`);
  await page.getByRole('alert').waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /not found/i);
});
