/**
 * The Firecrawl door's batch scrape, driven by Firecrawl's own SDK (@mendable/firecrawl-js,
 * v2 and v1) against the real service, a fixture site and a webhook receiver on loopback: a
 * batch of 50 pages with every webhook event and each page charged once, results paged with
 * `next`, cancel, the errors endpoint, the engine choice and its credits (a shell rendered
 * and charged as a render; one the account cannot render fails the batch with a 402), and
 * batches invisible to other accounts.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { getAccount } from '../../../src/accounts/account-store.js';
import { batchToEnd } from '../../helpers/firecrawl-wait.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { freePort } from '../../helpers/free-port.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

let site: FixtureSite;
let service: TestService;
let receiver: WebhookReceiver;
let fc: Firecrawl;

const CREDITS = 10_000;
/** No cache reads: every page is loaded (v2's default maxAge would answer repeats from it). */
const fresh = { formats: ['markdown' as const], maxAge: 0 };

const pageHtml = (n: string) =>
  `<!doctype html><html lang="en"><head><title>Page ${n}</title></head><body><main><h1>Heading ${n}</h1><p>Body of page ${n}, MARKER-${n}, with enough words to be the main content of the page.</p></main></body></html>`;

before(async () => {
  site = await startFixtureSite();
  site.route('/p', (_req, res, url) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(url.searchParams.get('n') ?? '?'));
  });
  site.html(
    '/shell',
    '<!doctype html><html><head><title>Shell</title></head><body><div id="app">Loading...</div><script>document.getElementById("app").textContent = "SHELL-FILLED";</script></body></html>',
  );
  service = await startService({ credits: CREDITS, concurrencyLimit: 10 });
  receiver = await startWebhookReceiver({ secret: service.webhookSecret });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await Promise.all([site?.close(), receiver?.close()]);
});

const urlsOf = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => site.url(`/p?n=${prefix}-${i}`));

/** The batch's events as the receiver got them, one per webhookId. */
function eventsOf(batchId: string) {
  const byId = new Map<string, { type: string; success: boolean; data: unknown[] }>();
  for (const delivery of receiver.deliveries) {
    const body = JSON.parse(delivery.body.toString('utf8'));
    if (body.id === batchId) byId.set(body.webhookId, body);
  }
  return [...byId.values()];
}

async function settledCharges(requestIds: string[]) {
  const rows = await service.running.store.db
    .selectFrom('ledger')
    .select(['request_id', 'amount'])
    .where('kind', '=', 'settle')
    .where('request_id', 'in', requestIds)
    .execute();
  return rows;
}

describe('a batch of 50 pages', () => {
  it('scrapes every page, sends started, 50 page events and completed, and charges each page once', async () => {
    const before = (await getAccount(service.running.store.db, service.accountId))?.credits ?? 0;
    const urls = urlsOf('fifty', 50);
    // The SDK's own waiter here (the other batches look more often: helpers/firecrawl-wait.ts).
    const job = await fc.batchScrape(urls, {
      options: fresh,
      webhook: { url: receiver.url('/fifty'), metadata: { suite: 'batch' } },
      pollInterval: 1,
      timeout: 240,
    });
    assert.equal(job.status, 'completed');
    assert.equal(job.total, 50);
    assert.equal(job.completed, 50);
    assert.equal(job.data.length, 50);
    const sources = job.data.map((doc) => String(doc.metadata?.sourceURL)).sort();
    assert.deepEqual(sources, [...urls].sort());
    for (const doc of job.data) {
      const n = new URL(String(doc.metadata?.sourceURL)).searchParams.get('n');
      assert.match(doc.markdown ?? '', new RegExp(`MARKER-${n}`));
      assert.equal(doc.metadata?.statusCode, 200);
      assert.equal(doc.metadata?.creditsUsed, 1);
    }

    // Every event, at least once (a receiver dedupes on webhookId), signed.
    await receiver.waitFor(() => eventsOf(job.id).length >= 52, 60_000);
    const events = eventsOf(job.id);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    assert.equal(count('batch_scrape.started'), 1);
    assert.equal(count('batch_scrape.page'), 50);
    assert.equal(count('batch_scrape.completed'), 1);
    assert.ok(events.every((e) => e.success));
    assert.equal(receiver.badSignatures(), 0);
    const pageEvents = events.filter((e) => e.type === 'batch_scrape.page');
    const evented = pageEvents.map(
      (e) => (e.data[0] as { metadata: { sourceURL: string } }).metadata.sourceURL,
    );
    assert.deepEqual(evented.sort(), [...urls].sort());

    const scrapeIds = job.data.map((doc) => String(doc.metadata?.scrapeId));
    const charges = await settledCharges(scrapeIds);
    assert.equal(charges.length, 50);
    assert.equal(new Set(charges.map((row) => row.request_id)).size, 50);
    assert.equal(job.creditsUsed, 50);
    const afterCredits = (await getAccount(service.running.store.db, service.accountId))?.credits;
    assert.equal(afterCredits, before - 50);
  });
});

describe('results', () => {
  it('come in pages linked by next (limit, skip), every page exactly once', async () => {
    const urls = urlsOf('paged', 12);
    const started = await fc.startBatchScrape(urls, { options: fresh });
    await until(
      async () => (await fc.getBatchScrapeStatus(started.id)).status === 'completed',
      60_000,
    );
    const seen: string[] = [];
    let next: string | undefined = `${started.url}?limit=5`;
    let answers = 0;
    while (next) {
      const res: Response = await fetch(next, {
        headers: { authorization: `Bearer ${service.apiKey}` },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as {
        data: { metadata: { sourceURL: string } }[];
        next?: string;
      };
      assert.ok(body.data.length <= 5);
      seen.push(...body.data.map((doc) => doc.metadata.sourceURL));
      next = body.next;
      answers++;
    }
    assert.equal(answers, 3);
    assert.deepEqual([...seen].sort(), [...urls].sort());
    // The v2 SDK follows next by itself; the v1 SDK takes skip and limit.
    const all = await fc.getBatchScrapeStatus(started.id);
    assert.equal(all.data.length, 12);
    const second = await fc.v1.checkBatchScrapeStatus(started.id, false, undefined, 10, 5);
    assert.ok(second.success);
    if (second.success) assert.equal(second.data.length, 2);
  });
});

describe('cancel', () => {
  it('stops a batch: pages not started are never fetched nor charged', async () => {
    const held: ServerResponse[] = [];
    site.route('/held', (_req, res) => {
      held.push(res);
    });
    const urls = Array.from({ length: 8 }, (_, i) => site.url(`/held?i=${i}`));
    const started = await fc.startBatchScrape(urls, { options: fresh, maxConcurrency: 2 });
    await until(() => held.length === 2, 30_000);
    assert.equal(await fc.cancelBatchScrape(started.id), true);
    for (const res of held) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(pageHtml('held'));
    }
    await until(async () => (await fc.getBatchScrapeStatus(started.id)).completed === 2, 30_000);
    const status = await fc.getBatchScrapeStatus(started.id);
    assert.equal(status.status, 'cancelled');
    assert.equal(site.hits('/held'), 2);
    assert.equal(status.creditsUsed, status.data.length);
  });
});

describe('errors', () => {
  it('lists the pages that failed, with their URL and code; the counts leave them out as Firecrawl does', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/gone`;
    const urls = [...urlsOf('err-ok', 4), dead];
    const job = await batchToEnd(fc, urls, { options: fresh }, 120_000);
    assert.equal(job.status, 'completed');
    // Firecrawl takes a failed page out of `total` and never counts it in `completed`.
    assert.deepEqual(
      { completed: job.completed, total: job.total, data: job.data.length },
      { completed: 4, total: 4, data: 4 },
    );
    const { errors, robotsBlocked } = await fc.getBatchScrapeErrors(job.id);
    assert.deepEqual(robotsBlocked, []);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.url, dead);
    assert.equal(errors[0]?.code, 'SCRAPE_SITE_ERROR');
    assert.match(errors[0]?.error ?? '', /Failed to fetch the page/);
    // The v1 SDK asks for them with DELETE.
    const v1 = await fc.v1.checkBatchScrapeErrors(job.id);
    assert.ok('errors' in v1);
    if ('errors' in v1) assert.equal(v1.errors.length, 1);
  });

  it('lists invalid URLs instead of refusing the batch when asked', async () => {
    const started = await fc.startBatchScrape(['not a url', site.url('/p?n=valid')], {
      options: fresh,
      ignoreInvalidURLs: true,
    });
    assert.deepEqual(started.invalidURLs, ['not a url']);
  });
});

describe('engine choice', () => {
  it("renders only a batch's shells, each page charged for the engine that served it", async () => {
    const job = await batchToEnd(
      fc,
      [site.url('/p?n=engine'), site.url('/shell')],
      {
        options: fresh,
      },
      120_000,
    );
    assert.equal(job.status, 'completed');
    const byUrl = new Map(job.data.map((doc) => [doc.metadata?.sourceURL, doc]));
    const fetched = byUrl.get(site.url('/p?n=engine'));
    const rendered = byUrl.get(site.url('/shell'));
    assert.equal(fetched?.metadata?.engine, 'fetch');
    assert.equal(fetched?.metadata?.creditsUsed, 1);
    assert.match(String(rendered?.markdown), /SHELL-FILLED/);
    assert.equal(rendered?.metadata?.engine, 'browser');
    assert.equal(rendered?.metadata?.creditsUsed, 15);
  });

  it('a page the account cannot render fails the batch with the figures, not charged', async () => {
    const poor = await service.addAccount(5);
    const client = new Firecrawl({ apiKey: poor.apiKey, apiUrl: service.baseUrl });
    const job = await batchToEnd(
      client,
      [site.url('/shell')],
      {
        options: fresh,
      },
      120_000,
    );
    assert.equal(job.status, 'failed');
    const { errors } = await client.getBatchScrapeErrors(job.id);
    assert.equal(
      errors[0]?.error,
      'Insufficient credits to perform this request: it needs 15 credits and the account has 4.',
    );
    assert.equal((await getAccount(service.running.store.db, poor.id))?.credits, 5);
  });
});

describe('ownership', () => {
  it("answers another account's batch as an unknown job (404), leaking nothing", async () => {
    const started = await fc.startBatchScrape([site.url('/p?n=mine')], { options: fresh });
    const other = await service.addAccount(100);
    const theirs = new Firecrawl({ apiKey: other.apiKey, apiUrl: service.baseUrl });
    await assert.rejects(
      theirs.getBatchScrapeStatus(started.id),
      (error: Error & { status?: number }) => {
        assert.equal(error.status, 404);
        assert.match(error.message, /Job not found/);
        return true;
      },
    );
    await assert.rejects(theirs.cancelBatchScrape(started.id), { status: 404 });
    await assert.rejects(theirs.getBatchScrapeErrors(started.id), { status: 404 });
  });
});

describe('v1', () => {
  it('batchScrapeUrls waits for the batch (it polls /v1/crawl/{id}) and returns every page', async () => {
    const urls = urlsOf('v1', 3);
    const result = await fc.v1.batchScrapeUrls(urls, { formats: ['markdown'] }, 1);
    assert.ok(result.success);
    if (!result.success) return;
    assert.equal(result.status, 'completed');
    assert.equal(result.data.length, 3);
    assert.ok(result.data.every((doc) => /MARKER-v1-/.test(doc.markdown ?? '')));
  });

  it('refuses a body with an invalid URL unless ignoreInvalidURLs (v1 default false)', async () => {
    await assert.rejects(
      fc.v1.asyncBatchScrapeUrls(['not a url'], { formats: ['markdown'] }),
      /400/,
    );
  });
});

describe('screenshots', () => {
  it('come back as links served by pagegrab, or inline when asked', async () => {
    const job = await batchToEnd(
      fc,
      [site.url('/p?n=shot')],
      {
        options: { formats: ['markdown', 'screenshot'], maxAge: 0 },
      },
      120_000,
    );
    assert.equal(job.data.length, 1);
    const link = job.data[0]?.screenshot ?? '';
    assert.match(link, new RegExp(`^${service.baseUrl}/v2/screenshots/[A-Za-z0-9_-]{22}$`));
    const image = await fetch(link);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.ok((await image.arrayBuffer()).byteLength > 0);

    const inline = await batchToEnd(
      fc,
      [site.url('/p?n=inline')],
      {
        options: { formats: [{ type: 'screenshot', base64: true } as never], maxAge: 0 },
      },
      120_000,
    );
    assert.match(inline.data[0]?.screenshot ?? '', /^data:image\/png;base64,/);
  });
});

describe('OpenAPI', () => {
  it('documents the batch routes under the firecrawl tag, with their body fields', async () => {
    interface Operation {
      tags?: string[];
      requestBody?: { content: Record<string, { schema: { properties?: object } }> };
    }
    const doc = (await (await fetch(`${service.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    for (const version of ['v1', 'v2']) {
      const post = doc.paths[`/${version}/batch/scrape`]?.post;
      assert.ok(post?.tags?.includes('firecrawl'));
      const fields = Object.keys(
        post?.requestBody?.content['application/json']?.schema.properties ?? {},
      );
      for (const field of [
        'urls',
        'webhook',
        'maxConcurrency',
        'ignoreInvalidURLs',
        'formats',
        'origin',
      ]) {
        assert.ok(fields.includes(field), `${version} ${field}`);
      }
      assert.ok(doc.paths[`/${version}/batch/scrape/{id}`]?.get?.tags?.includes('firecrawl'));
      assert.ok(doc.paths[`/${version}/batch/scrape/{id}`]?.delete?.tags?.includes('firecrawl'));
      assert.ok(
        doc.paths[`/${version}/batch/scrape/{id}/errors`]?.get?.tags?.includes('firecrawl'),
      );
    }
  });
});
