/**
 * The Firecrawl door's crawl, driven by Firecrawl's own SDK (@mendable/firecrawl-js, v2 and
 * v1) against the real service and generated sites on loopback (test/helpers/crawl-site.ts):
 * a link tree with cycles, fragments, trailing slashes and a redirect scraped once per page
 * (the redirect's target and the direct link to it are one page);
 * the crawl options; robots.txt rules; a sitemap index; a host answering 429; per-host
 * concurrency; webhook events; cancel, errors and active crawls (credits running out and
 * Retry-After: crawl-politeness.test.ts, on both databases).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { getAccount } from '../../../src/accounts/account-store.js';
import { purgeBatches } from '../../../src/store/batches.js';
import { purgeCrawls } from '../../../src/store/crawls.js';
import { type CrawlSite, startCrawlSite } from '../../helpers/crawl-site.js';
import { crawlToEnd } from '../../helpers/firecrawl-wait.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

let service: TestService;
let receiver: WebhookReceiver;
let fc: Firecrawl;
const sites: CrawlSite[] = [];

/** No cache reads: every page is loaded. */
const scrapeOptions = { formats: ['markdown' as const], maxAge: 0 };

before(async () => {
  service = await startService({
    credits: 100_000,
    concurrencyLimit: 10,
    env: { CRAWL_HOST_CONCURRENCY: '3', JOB_POLL_MS: '50' },
  });
  receiver = await startWebhookReceiver({ secret: service.webhookSecret });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await receiver?.close();
  await Promise.all(sites.map((site) => site.close()));
});

async function site(options: Parameters<typeof startCrawlSite>[0]) {
  const started = await startCrawlSite(options);
  sites.push(started);
  return started;
}

const sourcesOf = (data: { metadata?: { sourceURL?: string } }[]) =>
  data.map((doc) => String(doc.metadata?.sourceURL));

function pathsOf(urls: string[]) {
  return urls.map((url) => new URL(url).pathname).sort();
}

/** Where each result's page was read (metadata.url: after redirects), sorted. */
const landedPathsOf = (data: { metadata?: object }[]) =>
  pathsOf(data.map((doc) => String((doc.metadata as { url?: string } | undefined)?.url)));

describe('a crawl of a link tree', () => {
  it('scrapes every page once (cycles, fragments, trailing slashes), never more than the per-host bound at once, and sends its events', async () => {
    const tree = await site({ pages: 40, delayMs: 20 });
    // The SDK's own waiter here (the other crawls look more often: helpers/firecrawl-wait.ts).
    const job = await fc.crawl(tree.url('/'), {
      scrapeOptions,
      limit: 1000,
      maxConcurrency: 8,
      webhook: { url: receiver.url('/tree'), metadata: { suite: 'crawl' } },
      pollInterval: 1,
      timeout: 240,
    });
    assert.equal(job.status, 'completed');
    const sources = sourcesOf(job.data);
    assert.equal(new Set(sources).size, sources.length, 'each page once in the results');
    // /old/1 redirects to /p/1: one page, whichever the crawl reached first.
    const expected = [...tree.pagePaths()].sort();
    assert.deepEqual(landedPathsOf(job.data), expected);
    const viaRedirect = sources.some((url) => new URL(url).pathname === '/old/1');
    assert.deepEqual(
      pathsOf(sources).filter((path) => path === '/old/1' || path === '/p/1'),
      [viaRedirect ? '/old/1' : '/p/1'],
    );
    assert.equal(job.total, expected.length);
    assert.equal(job.completed, expected.length);
    assert.equal(job.creditsUsed, expected.length, 'the page reached twice is charged once');
    for (const path of tree.pagePaths()) {
      // /p/1 is also loaded by /old/1's redirect when both were under way at once.
      if (path === '/p/1') continue;
      assert.equal(tree.hits.get(path), 1, `${path} fetched once`);
    }
    assert.equal(tree.hits.get('/p/3/'), undefined, 'a trailing slash is the same page');
    assert.ok(tree.maxInFlight() <= 3, `at most 3 at once on the host, saw ${tree.maxInFlight()}`);
    const markdown = job.data.find((doc) => doc.metadata?.sourceURL === tree.url('/p/7'));
    assert.match(String(markdown?.markdown), /PAGE-7/);
    assert.equal(markdown?.links, undefined, 'links were not asked for');

    await until(() => {
      const types = eventsOf(job.id).map((event) => event.type);
      return (
        types.includes('crawl.completed') &&
        types.filter((t) => t === 'crawl.page').length === expected.length
      );
    }, 60_000);
    const events = eventsOf(job.id);
    assert.equal(events.filter((e) => e.type === 'crawl.started').length, 1);
    assert.equal(events.filter((e) => e.type === 'crawl.completed').length, 1);
    assert.deepEqual(events[0]?.metadata, { suite: 'crawl' });
  });

  it('follows the options: limit, maxDiscoveryDepth, includePaths, excludePaths', async () => {
    const tree = await site({ pages: 31 });
    // Without /old/1: a redirect found to be another page's frees its slot only for links
    // found after it, so the count would depend on the order pages end in.
    const limited = await crawlToEnd(
      fc,
      tree.url('/'),
      {
        scrapeOptions,
        limit: 5,
        excludePaths: ['^/old/'],
        sitemap: 'skip',
      },
      120_000,
    );
    assert.equal(limited.status, 'completed');
    assert.equal(limited.data.length, 5);
    assert.equal(limited.total, 5);

    const shallow = await crawlToEnd(
      fc,
      tree.url('/p/0'),
      {
        scrapeOptions,
        maxDiscoveryDepth: 1,
        crawlEntireDomain: true,
      },
      120_000,
    );
    // /p/0 (depth 0), then its links: /, /p/1, /p/2, /old/1 (depth 1; the same page as /p/1).
    assert.deepEqual(landedPathsOf(shallow.data), ['/', '/p/0', '/p/1', '/p/2']);

    const filtered = await crawlToEnd(
      fc,
      tree.url('/'),
      {
        scrapeOptions,
        includePaths: ['^/p/'],
        excludePaths: ['^/p/[0-9]*[13579]$'],
      },
      120_000,
    );
    const paths = pathsOf(sourcesOf(filtered.data));
    assert.ok(paths.includes('/'), 'the start page is always scraped');
    for (const path of paths.filter((p) => p !== '/')) {
      assert.match(path, /^\/p\/\d*[02468]$/);
    }
    assert.ok(paths.includes('/p/0') && paths.includes('/p/2') && paths.includes('/p/6'));
  });
});

describe('robots.txt and sitemaps', () => {
  it('obeys robots.txt for pagegrab and lists blocked URLs in errors', async () => {
    const tree = await site({
      pages: 15,
      robots:
        'User-agent: *\nDisallow: /p/2\n\nUser-agent: pagegrab\nDisallow: /p/1\nDisallow: /old/\n',
    });
    const job = await crawlToEnd(fc, tree.url('/'), { scrapeOptions }, 120_000);
    assert.equal(job.status, 'completed');
    const paths = pathsOf(sourcesOf(job.data));
    // pagegrab's own group applies (not `*`): /p/1 and below it are never fetched.
    assert.ok(!paths.includes('/p/1') && !paths.includes('/p/10'));
    assert.ok(paths.includes('/p/2'), 'the * group does not apply to pagegrab');
    assert.equal(tree.hits.get('/p/1'), undefined);
    assert.equal(tree.hits.get('/p/10'), undefined);
    const errors = await fc.getCrawlErrors(job.id);
    assert.ok(errors.robotsBlocked.some((url) => new URL(url).pathname === '/p/1'));
    assert.equal(job.total, job.data.length, 'blocked URLs are not pages of the crawl');
  });

  it('refuses ignoreRobotsTxt unless the operator allows it', async () => {
    const response = await fetch(`${service.baseUrl}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/', ignoreRobotsTxt: true }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { success: boolean; error: string };
    assert.equal(body.success, false);
    assert.match(body.error, /CRAWL_ALLOW_IGNORE_ROBOTS/);
  });

  it('takes in a sitemap index (include) and only it (only)', async () => {
    const tree = await site({ pages: 3, sitemapPaths: ['/p/0', '/p/1', '/p/2', '/orphan/1'] });
    const only = await crawlToEnd(
      fc,
      tree.url('/'),
      {
        scrapeOptions,
        sitemap: 'only',
      },
      120_000,
    );
    assert.deepEqual(pathsOf(sourcesOf(only.data)), ['/', '/orphan/1', '/p/0', '/p/1', '/p/2']);
    assert.equal(tree.hits.get('/sitemap-a.xml'), 1);
    assert.equal(tree.hits.get('/sitemap-b.xml'), 1);
  });
});

describe('a host that answers 429', () => {
  it('slows down and retries the page later, charging only the real answer', async () => {
    const slow = await site({ pages: 2, throttle: 1 });
    const balance = async () =>
      (await getAccount(service.running.store.db, service.accountId))?.credits ?? 0;
    const before = await balance();
    const job = await crawlToEnd(
      fc,
      slow.url('/'),
      {
        scrapeOptions,
        sitemap: 'skip',
      },
      180_000,
    );
    assert.equal(job.status, 'completed');
    assert.deepEqual(landedPathsOf(job.data), ['/', '/p/0', '/p/1']);
    for (const doc of job.data) assert.equal(doc.metadata?.statusCode, 200);
    // Each page: one 429, then 200, at least a backoff (1 s) apart.
    for (const path of ['/', '/p/0']) {
      assert.equal(slow.hits.get(path), 2);
      assert.equal(slow.throttled.get(path)?.length, 1);
    }
    assert.equal(before - (await balance()), job.creditsUsed);
    assert.equal(job.creditsUsed, 3, 'one credit per page, the 429s refunded');
  });
});

describe('cancel, errors, active, paging and other accounts', () => {
  it('lists a running crawl, pages its results with next, cancels it and keeps what was scraped', async () => {
    const tree = await site({ pages: 200, delayMs: 100 });
    const started = await fc.startCrawl(tree.url('/'), { scrapeOptions, maxConcurrency: 2 });
    const active = await fc.getActiveCrawls();
    assert.ok(active.crawls.some((crawl) => crawl.id === started.id));
    await until(
      async () => (await fc.getCrawlStatus(started.id, { autoPaginate: false })).completed >= 6,
      60_000,
    );
    assert.equal(await fc.cancelCrawl(started.id), true);
    const first = await fc.getCrawlStatus(started.id, { autoPaginate: false });
    assert.equal(first.status, 'cancelled');
    const raw = await fetch(`${service.baseUrl}/v2/crawl/${started.id}?limit=2`, {
      headers: { authorization: `Bearer ${service.apiKey}` },
    });
    const page = (await raw.json()) as { data: unknown[]; next?: string };
    assert.equal(page.data.length, 2);
    assert.match(String(page.next), new RegExp(`/v2/crawl/${started.id}\\?skip=2`));
    const all = await fc.getCrawlStatus(started.id);
    assert.ok(all.data.length >= 6);
    const count = all.data.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await fc.getCrawlStatus(started.id)).data.length <= count + 2);
    assert.ok(!(await fc.getActiveCrawls()).crawls.some((crawl) => crawl.id === started.id));

    const other = await service.addAccount(100);
    const stranger = new Firecrawl({ apiKey: other.apiKey, apiUrl: service.baseUrl });
    await assert.rejects(() => stranger.getCrawlStatus(started.id), /Job not found/);
  });

  it('v1: crawlUrl, checkCrawlStatus and checkCrawlErrors', async () => {
    const tree = await site({ pages: 6 });
    const v1 = new FirecrawlAppV1({ apiKey: service.apiKey, apiUrl: service.baseUrl });
    const job = await v1.crawlUrl(
      tree.url('/'),
      { scrapeOptions: { formats: ['markdown'] }, maxDepth: 5 },
      1,
    );
    assert.ok(job.success);
    if (!job.success) return;
    assert.equal(job.status, 'completed');
    assert.deepEqual(landedPathsOf(job.data), [...tree.pagePaths()].sort());
    const started = await v1.asyncCrawlUrl(tree.url('/p/0'), { limit: 2 });
    assert.ok(started.success && started.id);
    const id = String(started.id);
    await until(async () => {
      const status = await v1.checkCrawlStatus(id);
      return status.success && status.status === 'completed';
    }, 60_000);
    const status = await v1.checkCrawlStatus(id);
    assert.ok(status.success);
    if (status.success) assert.equal(status.data.length, 2);
    const errors = await v1.checkCrawlErrors(id);
    assert.ok('errors' in errors && errors.errors.length === 0);
  });
});

describe('bounds and expiry', () => {
  it('stops a crawl as failed when the account keeps more result bytes than allowed', async () => {
    const small = await startService({
      credits: 10_000,
      env: { CRAWL_MAX_STORED_BYTES: '4096', JOB_POLL_MS: '50' },
    });
    try {
      const tree = await site({ pages: 30 });
      const client = new Firecrawl({ apiKey: small.apiKey, apiUrl: small.baseUrl });
      const job = await crawlToEnd(
        client,
        tree.url('/'),
        {
          scrapeOptions,
          maxConcurrency: 1,
        },
        120_000,
      );
      assert.equal(job.status, 'failed');
      assert.ok(job.data.length > 0 && job.data.length < 31, `${job.data.length} pages kept`);
      const status = await fetch(`${small.baseUrl}/v2/crawl/${job.id}`, {
        headers: { authorization: `Bearer ${small.apiKey}` },
      });
      const body = (await status.json()) as { error?: string };
      assert.match(String(body.error), /^Storage limit reached: .* 4096 bytes/);
    } finally {
      await small.close();
    }
  });

  it('purges an expired crawl: its pages, its crawl row and its status', async () => {
    const tree = await site({ pages: 2 });
    const job = await crawlToEnd(fc, tree.url('/'), { scrapeOptions }, 60_000);
    const { db } = service.running.store;
    const later = Date.now() + 2 * 24 * 3600_000;
    assert.ok((await purgeBatches(db, later)) >= 1);
    assert.ok((await purgeCrawls(db, later)) >= 1);
    const pages = await db
      .selectFrom('batch_pages' as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('batch_id' as never, '=', job.id as never)
      .executeTakeFirstOrThrow();
    assert.equal(Number((pages as { n: number }).n), 0);
    await assert.rejects(() => fc.getCrawlStatus(job.id), /Job not found/);
  });
});

function eventsOf(id: string) {
  const byId = new Map<string, { type: string; metadata: unknown }>();
  for (const delivery of receiver.deliveries) {
    const body = JSON.parse(delivery.body.toString('utf8'));
    if (body.id === id) byId.set(body.webhookId, body);
  }
  return [...byId.values()];
}
