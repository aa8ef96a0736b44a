/**
 * The console's views for the e2e test, the accessibility audit and the screenshot script
 * (bench/dashboard-screenshots.ts): some traffic to show (a one-off scrape, a Markdown one, a
 * failure, a workflow and its run), a page signed in without the form, and each view with
 * what shows it is ready.
 */
import type { Page } from 'playwright-core';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { until } from '../helpers/until.js';

export interface Seeded {
  workflowId: string;
  /** A successful one-off scrape with a kept HTML result. */
  okRequestId: string;
  failedRequestId: string;
  articleUrl: string;
  /** A finished crawl of the fixture's article (the crawls page and its results). */
  crawlId: string;
  /** A scrape through the Firecrawl door (its request detail shows its Document). */
  firecrawlRequestId: string;
}

export const ARTICLE = `<!doctype html><html lang="en"><head><title>Console fixture</title></head>
<body><main><article><h1>Console fixture</h1>
<p>A page the console scrapes, with enough prose for the Markdown extractor to keep it as the
main content of the page. Second sentence of the paragraph.</p>
<p>Another paragraph, with a <a href="/page">link</a>.</p></article></main></body></html>`;

async function scrape(base: string, key: string, query: Record<string, string>) {
  const res = await fetch(`${base}/api/scraper?${new URLSearchParams(query)}`, {
    headers: { 'X-API-Key': key },
  });
  await res.arrayBuffer();
  return res.headers.get('x-request-id') ?? '';
}

export async function seedTraffic(
  base: string,
  key: string,
  site: FixtureSite,
  deadPort: number,
): Promise<Seeded> {
  site.html('/article', ARTICLE);
  const okRequestId = await scrape(base, key, { url: `${site.origin}/article` });
  await scrape(base, key, { url: `${site.origin}/article`, markdown: 'true' });
  const failedRequestId = await scrape(base, key, { url: `http://127.0.0.1:${deadPort}/down` });
  const created = await fetch(`${base}/api/workflow/create`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Console article', config: { url: `${site.origin}/article` } }),
  });
  const workflow = (await created.json()) as { id: string };
  await scrape(base, key, { workflow_id: workflow.id });
  const crawlId = await finishedCrawl(base, key, `${site.origin}/article`);
  const firecrawlRequestId = await doorScrape(base, key, `${site.origin}/article`);
  return {
    crawlId,
    firecrawlRequestId,
    workflowId: workflow.id,
    okRequestId,
    failedRequestId,
    articleUrl: `${site.origin}/article`,
  };
}

/** Starts a crawl of one page through the Firecrawl door and waits for its end. */
async function finishedCrawl(base: string, key: string, url: string): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const started = await fetch(`${base}/v2/crawl`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url, limit: 1, scrapeOptions: { formats: ['markdown'] } }),
  });
  const { id } = (await started.json()) as { id: string };
  const status = async () =>
    ((await (await fetch(`${base}/v2/crawl/${id}`, { headers })).json()) as { status: string })
      .status;
  // a guard only: the crawl of one loopback page ends in well under a second
  await until(async () => (await status()) !== 'scraping', 60_000);
  return id;
}

/** A Markdown scrape through the Firecrawl door; its id once its result is kept. */
async function doorScrape(base: string, key: string, url: string): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const res = await fetch(`${base}/v2/scrape`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url, formats: ['markdown', 'html'] }),
  });
  const id = ((await res.json()) as { data: { metadata: { scrapeId: string } } }).data.metadata
    .scrapeId;
  // Kept behind the answer: a guard only, it is written within a few milliseconds.
  await until(async () => {
    const detail = await fetch(`${base}/api/requests/${id}`, { headers: { 'X-API-Key': key } });
    return ((await detail.json()) as { result: unknown }).result !== null;
  }, 30_000);
  return id;
}

/** Signs the page in as the dashboard would after the form (the key in sessionStorage). */
export async function signInByStorage(page: Page, key: string): Promise<void> {
  await page.addInitScript((k) => sessionStorage.setItem('pagegrab.apiKey', k), key);
}

export interface View {
  name: string;
  hash: string;
  /** The document title the view sets. */
  title: RegExp;
  /** Resolves once the view shows its data. */
  ready: (page: Page) => Promise<unknown>;
  signedOut?: boolean;
  /** What to do once ready (send a request), and what shows it is done. */
  act?: (page: Page) => Promise<unknown>;
}

export function consoleViews(seeded: Seeded): View[] {
  return [
    {
      name: 'signin',
      hash: '',
      title: /^Sign in · pagegrab$/,
      signedOut: true,
      ready: (p) => p.getByTestId('signin-form').waitFor(),
    },
    {
      name: 'overview',
      hash: '#/',
      title: /^Overview · pagegrab$/,
      ready: (p) => p.getByTestId('recent-table').waitFor(),
    },
    {
      name: 'requests',
      hash: '#/requests',
      title: /^Requests · pagegrab$/,
      ready: (p) => p.getByTestId('log-row').first().waitFor(),
    },
    {
      name: 'request',
      hash: `#/requests/${seeded.okRequestId}`,
      title: /^Request \w+ · pagegrab$/,
      ready: (p) => p.getByTestId('preview-html').waitFor(),
    },
    {
      name: 'request-firecrawl',
      hash: `#/requests/${seeded.firecrawlRequestId}`,
      title: /^Request \w+ · pagegrab$/,
      ready: (p) => p.getByTestId('document-preview').waitFor(),
    },
    {
      name: 'request-failed',
      hash: `#/requests/${seeded.failedRequestId}`,
      title: /^Request \w+ · pagegrab$/,
      ready: (p) => p.getByTestId('detail-error').waitFor(),
    },
    {
      name: 'playground',
      hash: '#/playground',
      title: /^Playground · pagegrab$/,
      ready: (p) => p.getByTestId('playground-form').waitFor(),
    },
    {
      name: 'playground-result',
      hash: '#/playground',
      title: /^Playground · pagegrab$/,
      ready: (p) => p.getByTestId('playground-form').waitFor(),
      act: async (p) => {
        await p.getByLabel('Target URL').fill(seeded.articleUrl);
        await p.getByLabel('Markdown').check();
        await p.getByRole('button', { name: 'Send request' }).click();
        await p.getByTestId('preview-markdown').waitFor({ timeout: 60_000 });
      },
    },
    {
      name: 'playground-door',
      hash: '#/playground',
      title: /^Playground · pagegrab$/,
      ready: (p) => p.getByTestId('api-choice').waitFor(),
      act: async (p) => {
        await p.getByLabel('Firecrawl API (/v2)').check();
        await p.getByLabel('Page URL').fill(seeded.articleUrl);
        await p.getByRole('button', { name: 'POST /v2/scrape' }).click();
        await p.getByTestId('door-result').waitFor({ timeout: 60_000 });
      },
    },
    {
      name: 'workflows',
      hash: '#/workflows',
      title: /^Workflows · pagegrab$/,
      ready: (p) =>
        p
          .getByTestId('workflow-last-status')
          .getByText(/success/)
          .first()
          .waitFor(),
    },
    {
      name: 'workflow',
      hash: `#/workflows/${seeded.workflowId}`,
      title: /^Console article · pagegrab$/,
      ready: (p) => p.getByTestId('history-table').waitFor(),
    },
    {
      name: 'workflow-edit',
      hash: `#/workflows/${seeded.workflowId}/edit`,
      title: /^Edit Console article · pagegrab$/,
      ready: (p) => p.getByTestId('workflow-form').waitFor(),
    },
    {
      name: 'crawls',
      hash: '#/crawls',
      title: /^Crawls · pagegrab$/,
      ready: (p) => p.getByTestId('crawl-list').waitFor(),
    },
    {
      name: 'crawl',
      hash: `#/crawls/${encodeURIComponent(seeded.crawlId)}`,
      title: /^Crawl \S+ · pagegrab$/,
      ready: (p) => p.getByTestId('crawl-pages').waitFor(),
      act: async (p) => {
        await p.getByRole('button', { name: 'Show result' }).first().click();
        await p.getByTestId('document-preview').waitFor();
      },
    },
    {
      name: 'keys',
      hash: '#/keys',
      title: /^API keys · pagegrab$/,
      ready: (p) => p.getByTestId('key-row').first().waitFor(),
    },
  ];
}

/** The four ways the views are checked: two sizes, two colour schemes. */
export const LOOKS = [
  { label: 'wide-light', width: 1280, height: 800, scheme: 'light' },
  { label: 'wide-dark', width: 1280, height: 800, scheme: 'dark' },
  { label: 'narrow-light', width: 375, height: 740, scheme: 'light' },
  { label: 'narrow-dark', width: 375, height: 740, scheme: 'dark' },
] as const;
