/**
 * The WebSocket watch of crawls and batches, through the v2 SDK's own watcher() (it connects
 * with undici's WebSocket on Node 20, the API key as its subprotocol) against the real service
 * and a crawl site on loopback: every document once, then done; a bad id or key ends the
 * watch with an error event. One raw socket reads the frames themselves: the catchup first,
 * and the end in the close frame's reason as Firecrawl sends it (v1 path: the reason only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { WebSocket } from 'undici';
import { type CrawlSite, startCrawlSite } from '../../helpers/crawl-site.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';

let service: TestService;
let crawlSite: CrawlSite;
let site: FixtureSite;
let fc: Firecrawl;
/** Answers of the gated page wait until the test opens the gate. */
let openGate: () => void = () => {};
let gate = Promise.resolve();

const options = { formats: ['markdown' as const], maxAge: 0 };
const WATCH_TIMEOUT_MS = 60_000;

before(async () => {
  service = await startService({
    credits: 10_000,
    env: { JOB_POLL_MS: '50', CRAWL_HOST_CONCURRENCY: '3' },
  });
  crawlSite = await startCrawlSite({ pages: 5 });
  site = await startFixtureSite();
  site.route('/page', (_req, res, url) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>${url.search}</title></head><body><main><h1>Page</h1>
<p>MARK${url.searchParams.get('n')} has enough words to be the page's main content.</p></main></body></html>`);
  });
  site.route('/gated', async (_req, res) => {
    await gate;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<html><head><title>Gated</title></head><body><main><p>GATED page content, let through at last.</p></main></body></html>',
    );
  });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  openGate();
  await service?.close();
  await Promise.all([crawlSite?.close(), site?.close()]);
});

interface Watched {
  documents: { metadata?: { sourceURL?: string } }[];
  order: string[];
  end: { status: string; error?: string; data?: unknown[] };
}

/** Runs the SDK's watcher to its end, noting each event. */
function watch(client: Firecrawl, id: string, kind: 'crawl' | 'batch', onDocument = () => {}) {
  const watcher = client.watcher(id, { kind, timeout: WATCH_TIMEOUT_MS / 1000 });
  const watched: Watched = { documents: [], order: [], end: { status: '' } };
  return new Promise<Watched>((resolve) => {
    watcher.on('document', (document: Watched['documents'][number]) => {
      watched.documents.push(document);
      watched.order.push('document');
      onDocument();
    });
    watcher.on('done', (end: Watched['end']) => {
      watched.order.push('done');
      watched.end = end;
      resolve(watched);
    });
    watcher.on('error', (end: Watched['end']) => {
      watched.order.push('error');
      watched.end = end;
      resolve(watched);
    });
    void watcher.start();
  });
}

const sourcesOf = (documents: Watched['documents']) =>
  documents.map((doc) => String(doc.metadata?.sourceURL)).sort();

describe("the v2 SDK's watcher()", () => {
  it('streams every page of a crawl once, then done', async () => {
    const started = await fc.startCrawl(crawlSite.url('/'), { limit: 4, scrapeOptions: options });
    const watched = await watch(fc, started.id, 'crawl');
    assert.equal(watched.end.status, 'completed', JSON.stringify(watched.end));
    const status = await fc.getCrawlStatus(started.id);
    assert.equal(status.data.length, 4);
    assert.deepEqual(sourcesOf(watched.documents), sourcesOf(status.data));
    assert.equal(new Set(sourcesOf(watched.documents)).size, 4, 'each page once');
    assert.equal(watched.order.at(-1), 'done');
    assert.equal(watched.order.filter((event) => event === 'done').length, 1);
  });

  it('streams a batch: pages that end while it watches arrive as they end, each once, then done', async () => {
    gate = new Promise((resolve) => {
      openGate = resolve;
    });
    const urls = [1, 2, 3].map((n) => site.url(`/page?n=${n}`));
    const started = await fc.startBatchScrape([...urls, site.url('/gated')], { options });
    // The gate opens once the watch has had the first pages: the last comes as it ends.
    let seen = 0;
    const watched = await watch(fc, started.id, 'batch', () => {
      seen++;
      if (seen >= 3) openGate();
    });
    assert.equal(watched.end.status, 'completed', JSON.stringify(watched.end));
    assert.deepEqual(sourcesOf(watched.documents), [...urls, site.url('/gated')].sort());
    assert.deepEqual(watched.order, ['document', 'document', 'document', 'document', 'done']);
  });

  it('ends with an error event naming an unknown job', async () => {
    const watched = await watch(fc, '0193a7c2-0000-7000-8000-000000000000', 'crawl');
    assert.deepEqual(watched.order, ['error']);
    assert.equal(watched.end.error, 'Job not found');
  });

  it("ends with an error event for a bad key, and another account's job is unknown to it", async () => {
    const started = await fc.startBatchScrape([site.url('/page?n=key')], { options });
    const stranger = new Firecrawl({ apiKey: 'pg_not_a_key', apiUrl: service.baseUrl });
    const badKey = await watch(stranger, started.id, 'batch');
    assert.deepEqual(badKey.order, ['error']);
    assert.equal(badKey.end.error, 'Unauthorized: Invalid token');
    const other = await service.addAccount(100);
    const otherClient = new Firecrawl({ apiKey: other.apiKey, apiUrl: service.baseUrl });
    const foreign = await watch(otherClient, started.id, 'batch');
    assert.equal(foreign.end.error, 'Job not found');
  });
});

/** Every frame of one watch, and how it closed. */
function frames(path: string, protocol: string) {
  const url = `${service.baseUrl.replace(/^http/, 'ws')}${path}`;
  const socket = new WebSocket(url, protocol);
  const messages: { type: string; data?: { status?: string; data?: unknown[] } }[] = [];
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  return new Promise<{ messages: typeof messages; code: number; reason: string }>(
    (resolve, reject) => {
      socket.addEventListener('error', () => reject(new Error(`WebSocket error on ${path}`)));
      socket.addEventListener('close', (event) =>
        resolve({ messages, code: event.code, reason: event.reason }),
      );
    },
  );
}

describe('the frames', () => {
  it("start with the catchup and end with Firecrawl's close reason; on v1 the reason alone", async () => {
    const job = await fc.batchScrape([site.url('/page?n=raw')], { options, pollInterval: 1 });
    assert.equal(job.status, 'completed');
    const v2 = await frames(`/v2/batch/scrape/${job.id}`, service.apiKey);
    assert.deepEqual(
      v2.messages.map((message) => message.type),
      ['catchup', 'done'],
    );
    assert.equal(v2.messages[0]?.data?.status, 'completed');
    assert.equal(v2.messages[0]?.data?.data?.length, 1);
    assert.deepEqual([v2.code, v2.reason], [1000, '{"type":"done"}']);
    const v1 = await frames(`/v1/crawl/${job.id}`, service.apiKey);
    assert.deepEqual(
      v1.messages.map((message) => message.type),
      ['catchup'],
    );
    assert.deepEqual([v1.code, v1.reason], [1000, '{"type":"done"}']);
    const unauthorized = await frames(`/v1/crawl/${job.id}`, 'pg_not_a_key');
    assert.deepEqual(unauthorized.messages, []);
    assert.equal(unauthorized.code, 3000);
    assert.deepEqual(JSON.parse(unauthorized.reason), {
      type: 'error',
      error: 'Unauthorized: Invalid token',
    });
  });

  it('leave the REST status route as it was', async () => {
    const job = await fc.batchScrape([site.url('/page?n=rest')], { options, pollInterval: 1 });
    const response = await fetch(`${service.baseUrl}/v2/batch/scrape/${job.id}`, {
      headers: { authorization: `Bearer ${service.apiKey}` },
    });
    assert.equal(response.status, 200);
    const unauthorized = await fetch(`${service.baseUrl}/v2/crawl/${job.id}`);
    assert.equal(unauthorized.status, 401);
    await until(async () => (await fc.getBatchScrapeStatus(job.id)).status === 'completed');
  });
});
