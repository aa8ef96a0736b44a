/**
 * A crawl's politeness and bounds on both databases, through Firecrawl's SDK against the
 * real service and loopback sites (test/helpers/crawl-site.ts), which time every request by
 * their own clock: a host answering 429 with Retry-After (seconds, then an HTTP date) is not
 * asked again before it said; an account running out of credits fails the crawl with a clear
 * error and keeps what was scraped; with ALLOW_PRIVATE_NETWORKS off and only 127.0.0.1 taken
 * for public (as the engines' own guard tests do), a link and a redirect to 127.0.0.2 (a
 * private host here) are refused without a connection to it, and robots.txt is asked before
 * a redirect hop is followed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { getAccount } from '../../../src/accounts/account-store.js';
import { DEFAULTS } from '../../../src/config.js';
import { type CrawlSite, startCrawlSite } from '../../helpers/crawl-site.js';
import { crawlToEnd } from '../../helpers/firecrawl-wait.js';
import { startService, type TestService } from '../../helpers/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

/** No cache reads: every page is loaded. */
const scrapeOptions = { formats: ['markdown' as const], maxAge: 0 };
/** Timers and clocks on one machine: what a wait may fall short by, generously. */
const SLACK_MS = 250;
/** CRAWL_BACKOFF_MS here: well under the Retry-After asked, so a wait of that long is the header's. */
const BACKOFF_MS = 100;
/**
 * The services' job settings. JOB_POLL_MS: each of a service's six job workers looks for work
 * this often while idle; at 50 ms they took about a tenth of a core per service doing so.
 * JOB_LEASE_MS: a lane step seen stuck after a 429's requeue (neither released nor renewed)
 * was taken again only when its lease ran out, 60 s by default; this bounds that wait.
 */
const JOB_ENV = { JOB_POLL_MS: '200', JOB_LEASE_MS: '10000' };

function pathsOf(data: { metadata?: { sourceURL?: string } }[]) {
  return data.map((doc) => new URL(String(doc.metadata?.sourceURL)).pathname).sort();
}

/**
 * For each 429 the site answered: its Retry-After in ms from its arrival, and the gap to the
 * site's next request (any path), both by the site's clock.
 */
function waitsAfter429(site: CrawlSite) {
  return site.log.flatMap((entry, i) => {
    if (entry.status !== 429) return [];
    const next = site.log[i + 1];
    const header = String(entry.retryAfter);
    const asked = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - entry.at;
    return [{ path: entry.path, asked, gap: next ? next.at - entry.at : null }];
  });
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`crawl politeness and credits (${engine})`, () => {
    let service: TestService;
    let fc: Firecrawl;
    let receiver: WebhookReceiver | null = null;
    const sites: CrawlSite[] = [];
    const site = async (options: Parameters<typeof startCrawlSite>[0]) => {
      const started = await startCrawlSite(options);
      sites.push(started);
      return started;
    };

    before(async () => {
      service = await startService({
        postgres: engine === 'postgres',
        credits: 10_000,
        env: { ...JOB_ENV, CRAWL_BACKOFF_MS: String(BACKOFF_MS) },
      });
      fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
    });
    after(async () => {
      await service?.close();
      await receiver?.close();
      await Promise.all(sites.map((s) => s.close()));
    });

    for (const form of ['seconds', 'HTTP date'] as const) {
      it(`waits out a 429's Retry-After (${form}) before asking the host again`, async () => {
        const slow = await site({
          pages: 1,
          throttle: 1,
          // 1 s, or 1-2 s as an HTTP date has whole seconds: the backoff without the header
          // would be BACKOFF_MS.
          retryAfter:
            form === 'seconds' ? () => '1' : () => new Date(Date.now() + 2000).toUTCString(),
        });
        const job = await crawlToEnd(
          fc,
          slow.url('/'),
          {
            scrapeOptions,
            sitemap: 'skip',
            maxConcurrency: 1,
          },
          180_000,
        );
        assert.equal(job.status, 'completed');
        assert.deepEqual(pathsOf(job.data), ['/', '/p/0']);
        for (const doc of job.data) assert.equal(doc.metadata?.statusCode, 200);
        const waits = waitsAfter429(slow);
        assert.deepEqual(
          waits.map((w) => w.path),
          ['/', '/p/0'],
          'each page answered 429 once',
        );
        for (const wait of waits) {
          assert.ok(wait.asked >= 900, `the site asked for ${wait.asked} ms`);
          assert.ok(
            wait.gap !== null && wait.gap >= wait.asked - SLACK_MS,
            `after a 429 on ${wait.path} asking ${wait.asked} ms, the next request came ${wait.gap} ms later`,
          );
        }
      });
    }

    it('fails with a clear error when the credits run out, keeps what was scraped and sends crawl.failed', async () => {
      const tree = await site({ pages: 30 });
      // A page reserves what its fetch costs (1; a render would be reserved only when the
      // page turned out a shell): from 4 credits, 4 pages run and the 5th is refused.
      const fetchPrice = DEFAULTS.pricing.baseFetch * DEFAULTS.pricing.multipliers.datacenter;
      const poor = await service.addAccount(4 * fetchPrice);
      receiver = await startWebhookReceiver({ secret: poor.webhookSecret });
      const client = new Firecrawl({ apiKey: poor.apiKey, apiUrl: service.baseUrl });
      const job = await crawlToEnd(
        client,
        tree.url('/'),
        {
          scrapeOptions: { ...scrapeOptions, proxy: 'basic' },
          maxConcurrency: 1,
          webhook: { url: receiver.url('/poor') },
        },
        120_000,
      );
      assert.equal(job.status, 'failed');
      assert.equal(job.data.length, 4);
      for (const doc of job.data) assert.match(String(doc.markdown), /Text of page|home page/);
      assert.equal(job.creditsUsed, 4);
      const errors = await client.getCrawlErrors(job.id);
      assert.ok(errors.errors.some((error) => /Insufficient credits/.test(error.error)));
      assert.equal((await getAccount(service.running.store.db, poor.id))?.credits, 0);
      const raw = await fetch(`${service.baseUrl}/v2/crawl/${job.id}`, {
        headers: { authorization: `Bearer ${poor.apiKey}` },
      });
      const body = (await raw.json()) as { status: string; error?: string; data: unknown[] };
      assert.equal(body.status, 'failed');
      assert.equal(
        body.error,
        `Insufficient credits to perform this request: it needs ${fetchPrice} credit${fetchPrice === 1 ? '' : 's'} and the account has 0.`,
      );
      assert.equal(body.data.length, 4, 'the pages scraped before stay readable');
      const hook = receiver;
      await hook.waitFor(
        () =>
          hook.deliveries.some((d) => JSON.parse(d.body.toString('utf8')).type === 'crawl.failed'),
        60_000,
      );
      const failed = hook.deliveries
        .map((d) => JSON.parse(d.body.toString('utf8')))
        .find((event) => event.type === 'crawl.failed');
      assert.equal(failed.id, job.id);
      assert.equal(failed.success, false);
      assert.match(String(failed.error), /Insufficient credits/);
      assert.equal(hook.badSignatures(), 0);
    });
  });
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`crawl redirects and the address guard (${engine})`, () => {
    let service: TestService;
    let fc: Firecrawl;
    let site: CrawlSite;
    // A private host, as far as the service's policy goes: any connection to it is counted.
    let connections = 0;
    const secret = createServer((_req, res) => res.end('secret'));
    secret.on('connection', () => {
      connections++;
    });

    before(async () => {
      await new Promise<void>((resolve) => secret.listen(0, '127.0.0.2', resolve));
      const secretOrigin = `http://127.0.0.2:${(secret.address() as AddressInfo).port}`;
      site = await startCrawlSite({
        pages: 6,
        robots: 'User-agent: pagegrab\nDisallow: /private/\n',
        extraLinks: [`${secretOrigin}/linked`, '/to-secret', '/go-private'],
        redirects: { '/to-secret': `${secretOrigin}/redirected`, '/go-private': '/private/x' },
      });
      service = await startService({
        postgres: engine === 'postgres',
        credits: 10_000,
        allowPrivateNetworks: false,
        addressPolicy: (ip) => ip === '127.0.0.1',
        env: JOB_ENV,
      });
      fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
    });
    after(async () => {
      await service?.close();
      await site?.close();
      secret.closeAllConnections();
      await new Promise<void>((resolve) => secret.close(() => resolve()));
    });

    it('refuses a link and a redirect to a private address and checks robots.txt before following a redirect', async () => {
      const job = await crawlToEnd(
        fc,
        site.url('/'),
        {
          scrapeOptions,
          allowExternalLinks: true,
          sitemap: 'skip',
        },
        180_000,
      );
      assert.equal(job.status, 'completed');
      assert.equal(connections, 0, 'nothing connected to the private host');
      assert.equal(site.hits.get('/private/x'), undefined, 'the disallowed hop was not requested');
      assert.equal(site.hits.get('/to-secret'), 1);
      assert.equal(site.hits.get('/go-private'), 1);
      const sources = job.data.map((doc) => new URL(String(doc.metadata?.sourceURL)).pathname);
      assert.ok(!sources.includes('/to-secret') && !sources.includes('/go-private'));
      assert.ok(!sources.includes('/linked'));

      const errors = await fc.getCrawlErrors(job.id);
      const errorOf = (path: string) =>
        errors.errors.find((error) => new URL(String(error.url)).pathname === path)?.error;
      assert.match(String(errorOf('/linked')), /URL is not allowed: 127\.0\.0\.2/);
      assert.match(String(errorOf('/to-secret')), /URL is not allowed: 127\.0\.0\.2/);
      assert.ok(
        errors.robotsBlocked.some((url) => new URL(url).pathname === '/go-private'),
        `robotsBlocked: ${errors.robotsBlocked.join(', ')}`,
      );
      // As Firecrawl counts: the two refused pages failed and leave the total (they are under
      // the errors), the blocked one was never a page.
      assert.equal(job.total, job.data.length, 'the total counts the pages that have a document');
    });

    if (engine === 'sqlite') {
      it('asks robots.txt before a render follows a redirect hop too', async () => {
        const before = site.hits.get('/go-private') ?? 0;
        const job = await crawlToEnd(
          fc,
          site.url('/'),
          {
            // `waitFor` makes the door render: Chromium follows the redirects itself.
            scrapeOptions: { ...scrapeOptions, waitFor: 1, blockAds: false },
            limit: 4,
            sitemap: 'skip',
            // The home page links to /p/0, whose page links to /go-private (a redirect to /private/x).
            includePaths: ['^/$', '^/p/0$', '^/go-private$'],
          },
          180_000,
        );
        assert.equal(job.status, 'completed');
        assert.equal(site.hits.get('/go-private'), before + 1, 'the redirecting page was asked');
        assert.equal(
          site.hits.get('/private/x'),
          undefined,
          'the disallowed hop was not requested',
        );
        const errors = await fc.getCrawlErrors(job.id);
        assert.ok(
          errors.robotsBlocked.some((url) => new URL(url).pathname === '/go-private'),
          `robotsBlocked: ${errors.robotsBlocked.join(', ')}`,
        );
      });
    }
  });
}
