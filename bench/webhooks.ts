/**
 * Webhook throughput on loopback, against a bare baseline measured in the same run:
 *   1. end to end: N `GET /api/scraper?webhook_url=...` (32 at a time) of a small page; time
 *      from the first request until the receiver has all N deliveries (scrape, settle, store,
 *      signed POST, state);
 *   2. delivery only: N stored results and delivery jobs committed at once; deliveries/s
 *      between the receiver's first and last POST (claim, sign, POST, state, cleanup);
 *   3. baseline: N bare undici POSTs of the same body, 32 at a time, to the same receiver.
 *   node --import tsx bench/webhooks.ts [N=500]
 * PostgreSQL instead of the embedded database: PAGEGRAB_TEST_PG_ADMIN_URL=postgres://... and
 * `--postgres` (as scripts/run-tests.mjs provides).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Agent, request } from 'undici';
import { DELIVERY_JOB, deliveryJobId } from '../src/jobs/webhooks/job-kinds.js';
import { WEBHOOK_MAX_ATTEMPTS } from '../src/jobs/webhooks/retry-schedule.js';
import { newId } from '../src/store/ids.js';
import { JobQueue } from '../src/store/job-queue.js';
import { saveRunRecord } from '../src/store/run-records.js';
import { saveResult } from '../src/store/webhook-results.js';
import { sampleRunRecord } from '../test/helpers/run-record.js';
import { startService } from '../test/helpers/service.js';

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 500);
const postgres = process.argv.includes('--postgres');
const CONCURRENCY = 32;
const PAGE = `<!doctype html><html><head><title>Bench</title></head><body><main><h1>Bench</h1>${'<p>Some text of a paragraph.</p>'.repeat(40)}</main></body></html>`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Counts POSTs per path and resolves a waiter when a path reaches a count. */
function receiver() {
  const times = new Map<string, number[]>();
  let waiter: { path: string; count: number; resolve: () => void } | null = null;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      const list = times.get(path) ?? [];
      list.push(performance.now());
      times.set(path, list);
      res.writeHead(204).end();
      if (waiter && waiter.path === path && list.length >= waiter.count) waiter.resolve();
    });
  });
  return {
    server,
    times: (path: string) => times.get(path) ?? [],
    until: (path: string, count: number) =>
      new Promise<void>((resolve) => {
        waiter = { path, count, resolve };
        if ((times.get(path)?.length ?? 0) >= count) resolve();
      }),
  };
}

async function pool<T>(count: number, width: number, work: (i: number) => Promise<T>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

const target = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});
const hooks = receiver();
const [targetUrl, hookUrl] = await Promise.all([listen(target), listen(hooks.server)]);
const service = await startService({ credits: N * 4, concurrencyLimit: 64, postgres });
const load = loadavg()[0]?.toFixed(1);

// 1. End to end through the API.
let started = performance.now();
await pool(N, CONCURRENCY, async () => {
  const query = new URLSearchParams({
    api_key: service.apiKey,
    url: `${targetUrl}/page`,
    webhook_url: `${hookUrl}/e2e`,
  });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  await res.arrayBuffer();
});
const enqueuedMs = performance.now() - started;
await hooks.until('/e2e', N);
const e2eMs = performance.now() - started;

// 2. Delivery only: results and jobs committed together, then picked up by the worker.
const { db, dialect } = service.running.store;
const jobs = new JobQueue(db, dialect);
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < N; i++) {
    const requestId = newId();
    const webhookUrl = `${hookUrl}/delivery`;
    await saveRunRecord(
      trx,
      sampleRunRecord({
        id: requestId,
        accountId: service.accountId,
        workflowId: null,
        url: `${targetUrl}/page`,
        durationMs: 1,
        webhook: { url: webhookUrl, status: 'pending', attempts: 0, lastError: null },
      }),
    );
    await saveResult(trx, {
      requestId,
      scrapeStatus: 'success',
      contentType: 'text/html; charset=utf-8',
      body: Buffer.from(PAGE),
      targetStatus: 200,
      targetUrl: `${targetUrl}/page`,
      errorCode: null,
    });
    await jobs
      .within(trx)
      .enqueue(
        DELIVERY_JOB,
        { requestId, accountId: service.accountId, workflowId: null, webhookUrl },
        { id: deliveryJobId(requestId), maxAttempts: WEBHOOK_MAX_ATTEMPTS },
      );
  }
});
started = performance.now();
await hooks.until('/delivery', N);
const deliveryWallMs = performance.now() - started;
const deliveryTimes = hooks.times('/delivery');
const deliverySpanMs = (deliveryTimes.at(-1) ?? 0) - (deliveryTimes[0] ?? 0);

// 3. Baseline: bare POSTs of the same body, same width.
const agent = new Agent({ connections: CONCURRENCY });
started = performance.now();
await pool(N, CONCURRENCY, async () => {
  const res = await request(`${hookUrl}/bare`, {
    method: 'POST',
    body: PAGE,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    dispatcher: agent,
  });
  await res.body.dump();
});
const bareMs = performance.now() - started;

const perSec = (count: number, ms: number) => ((count * 1000) / ms).toFixed(0);
console.log(
  JSON.stringify(
    {
      n: N,
      store: postgres ? 'postgres' : 'sqlite',
      loadAverage1m: Number(load),
      enqueuePerSec: Number(perSec(N, enqueuedMs)),
      endToEndPerSec: Number(perSec(N, e2eMs)),
      deliveryOnlyPerSec: Number(perSec(N - 1, deliverySpanMs)),
      deliveryOnlyWallMs: Math.round(deliveryWallMs),
      barePostPerSec: Number(perSec(N, bareMs)),
      deliveryVsBare: Number((bareMs / deliverySpanMs).toFixed(3)),
    },
    null,
    2,
  ),
);
await agent.close();
await service.close();
target.close();
hooks.server.close();
