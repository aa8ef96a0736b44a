/**
 * The request detail of a Firecrawl-door scrape and of a crawl's page, in the real Chromium
 * against the real service: the request as it was made (the body's own fields), the Document
 * as the caller got it (Markdown rendered, HTML, the screenshot), the credits charged and the
 * scrape id, and the same request as a curl command and an SDK call.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { buildDashboard, type DashboardBuild } from '../helpers/dashboard-build.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';
import { until } from '../helpers/until.js';
import { ARTICLE, signInByStorage } from './console-views.js';

let service: TestService;
let site: FixtureSite;
let browser: Browser;
let page: Page;
let dashboard: DashboardBuild;

before(async () => {
  dashboard = await buildDashboard();
  [service, site] = await Promise.all([
    startService({ env: { DASHBOARD_DIR: dashboard.dir } }),
    startFixtureSite(),
  ]);
  site.html('/article', ARTICLE);
  browser = await chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
  page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(30_000);
  await signInByStorage(page, service.apiKey);
});
after(async () => {
  await browser?.close();
  await service?.close();
  await site?.close();
  await dashboard?.remove();
});

const door = async (path: string, body: unknown) => {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Record<string, unknown>;
};

/** Kept results are written behind the answer: the detail shows one once it is there. */
const kept = (id: string) =>
  until(async () => {
    const res = await fetch(`${service.baseUrl}/api/requests/${id}`, {
      headers: { 'X-API-Key': service.apiKey },
    });
    return ((await res.json()) as { result: unknown }).result !== null;
  }, 15_000);

test('a Firecrawl scrape shows its body, its Document, the credits charged, its id, and copies as curl and SDK call', async () => {
  const body = { url: `${site.origin}/article`, formats: ['markdown', 'html', 'screenshot'] };
  const answer = (await door('/v2/scrape', body)) as {
    data: { metadata: { scrapeId: string; creditsUsed: number } };
  };
  const { scrapeId, creditsUsed } = answer.data.metadata;
  assert.ok(creditsUsed > 0);
  await kept(scrapeId);

  await page.goto(`${service.baseUrl}/#/requests/${scrapeId}`);
  const detail = page.getByTestId('request-detail');
  await detail.getByTestId('document-preview').waitFor();
  assert.deepEqual(JSON.parse((await detail.getByTestId('detail-body').textContent()) ?? ''), body);
  assert.equal(await detail.getByTestId('doc-credits').textContent(), String(creditsUsed));
  assert.equal(await detail.getByTestId('detail-credits').textContent(), String(creditsUsed));
  assert.equal(await detail.getByTestId('doc-scrape-id').textContent(), scrapeId);

  const preview = detail.getByTestId('document-preview');
  assert.match(
    (await preview.locator('article.markdown h1').first().textContent()) ?? '',
    /Console fixture/,
  );
  await preview.getByLabel('HTML').check();
  assert.match(
    (await preview.getByTestId('preview-html').textContent()) ?? '',
    /<h1>Console fixture/,
  );
  await preview.getByLabel('Screenshot').check();
  const shot = preview.getByTestId('preview-screenshot');
  await shot.waitFor();
  await page.waitForFunction(
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
    await shot.elementHandle(),
  );

  const curl = (await detail.getByTestId('door-curl').textContent()) ?? '';
  assert.match(curl, new RegExp(`curl -X POST '${service.baseUrl}/v2/scrape'`));
  assert.ok(curl.includes(`-d '${JSON.stringify(body)}'`));
  assert.ok(!curl.includes(service.apiKey));
  const sdk = (await detail.getByTestId('door-sdk').textContent()) ?? '';
  assert.ok(sdk.includes(`firecrawl.scrape(${JSON.stringify(body.url)}, {`));
  assert.ok(sdk.includes('"formats": [\n    "markdown",\n    "html",\n    "screenshot"\n  ]'));
});

test("a crawl's page shows the crawl it belongs to, the crawl's scrapeOptions and its charge", async () => {
  const { id: crawlId } = (await door('/v2/crawl', {
    url: `${site.origin}/article`,
    limit: 1,
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
  })) as { id: string };
  const records = async () => {
    const res = await fetch(`${service.baseUrl}/api/requests?source=crawl`, {
      headers: { 'X-API-Key': service.apiKey },
    });
    return ((await res.json()) as { records: { id: string; status: string }[] }).records;
  };
  await until(async () => (await records())[0]?.status === 'success', 30_000);
  const id = (await records())[0]?.id ?? '';
  await kept(id);

  await page.goto(`${service.baseUrl}/#/requests/${id}`);
  const detail = page.getByTestId('request-detail');
  await detail.getByTestId('document-preview').waitFor();
  await detail
    .getByTestId('detail-job')
    .getByRole('link', { name: `crawl ${crawlId}` })
    .waitFor();
  assert.deepEqual(JSON.parse((await detail.getByTestId('detail-body').textContent()) ?? ''), {
    url: `${site.origin}/article`,
    formats: ['markdown'],
    maxAge: 0,
  });
  const credits = (await detail.getByTestId('detail-credits').textContent()) ?? '';
  assert.ok(Number(credits) > 0);
  assert.equal(await detail.getByTestId('doc-credits').textContent(), credits);
  assert.equal(await detail.getByTestId('doc-scrape-id').textContent(), id);
});
