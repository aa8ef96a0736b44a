/**
 * Batches survive their node: `pagegrab serve` killed with SIGKILL while a batch's pages are
 * in flight, then started again on the same DATA_DIR, finishes the batch with every page in
 * the results exactly once and charged exactly once; two nodes on one PostgreSQL share a
 * batch's lanes, and when one is killed the other finishes its pages once its leases expire.
 * Driven through the Firecrawl SDK; the pages answer slowly so that some are always in flight.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, type TestContext, test } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { getAccount } from '../../../src/accounts/account-store.js';
import { openStore } from '../../../src/store/db.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { createTestDatabase, pgSkipReason } from '../../helpers/postgres.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import {
  createAccountWithCli,
  type ServeProcess,
  spawnServe,
} from '../../jobs/webhooks/serve-process.js';

const TOTAL = 40;
const CREDITS = 1000;
const servers: ServeProcess[] = [];
after(async () => {
  for (const server of servers) if (server.child.exitCode === null) await server.kill();
});

/** A site whose pages answer after a short while, counting those in flight. */
async function slowSite(t: TestContext) {
  const site = await startFixtureSite();
  let inFlight = 0;
  site.route('/slow', (_req, res: ServerResponse, url) => {
    inFlight++;
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const n = url.searchParams.get('n');
      res.end(
        `<html><head><title>Slow ${n}</title></head><body><main><h1>Slow ${n}</h1><p>Text of slow page ${n}, SLOW-${n}, long enough to be the main content.</p></main></body></html>`,
      );
    }, 250);
  });
  t.after(() => site.close());
  return { site, inFlight: () => inFlight };
}

const urlsOf = (site: FixtureSite) =>
  Array.from({ length: TOTAL }, (_, i) => site.url(`/slow?n=${i}`));

/** Settled charges and open reservations of the account, and its balance. */
async function ledgerOf(databaseUrl: string | null, dataDir: string, accountId: string) {
  const store = await openStore({ databaseUrl, dataDir });
  try {
    const rows = await store.db
      .selectFrom('ledger')
      .select(['request_id', 'kind', 'amount'])
      .where('account_id', '=', accountId)
      .execute();
    const settled = rows.filter((r) => r.kind === 'settle').map((r) => String(r.request_id));
    const credits = (await getAccount(store.db, accountId))?.credits ?? 0;
    return { settled, credits, rows };
  } finally {
    await store.close();
  }
}

/** Page events received for the batch, one per webhookId. */
function pageEvents(receiver: WebhookReceiver, batchId: string): string[] {
  const byId = new Map<string, string>();
  for (const d of receiver.deliveries) {
    const body = JSON.parse(d.body.toString('utf8'));
    if (body.id === batchId && body.type === 'batch_scrape.page') {
      byId.set(body.webhookId, body.data[0]?.metadata?.sourceURL);
    }
  }
  return [...byId.values()];
}

/**
 * A status answer carries the batch's results: asked back to back (every 10 ms), the node
 * spent its time answering it instead of scraping, so it is asked four times a second.
 */
const STATUS_EVERY_MS = 250;

/** The batch's status once `done` holds for it, asked every STATUS_EVERY_MS. */
async function statusWhen(
  fc: Firecrawl,
  id: string,
  done: (status: Awaited<ReturnType<Firecrawl['getBatchScrapeStatus']>>) => boolean,
  guardMs: number,
) {
  await until(async () => done(await fc.getBatchScrapeStatus(id)), guardMs, STATUS_EVERY_MS);
}

async function checkResults(fc: Firecrawl, id: string, urls: string[]) {
  await statusWhen(fc, id, (status) => status.status === 'completed', 120_000);
  const job = await fc.getBatchScrapeStatus(id);
  assert.equal(job.total, TOTAL);
  assert.equal(job.completed, TOTAL);
  const sources = job.data.map((doc) => String(doc.metadata?.sourceURL));
  assert.equal(sources.length, TOTAL, 'every page in the results exactly once');
  assert.deepEqual([...sources].sort(), [...urls].sort());
  assert.equal((await fc.getBatchScrapeErrors(id)).errors.length, 0);
  return job;
}

/**
 * The two tests run at once: each has its own site, DATA_DIR or database, account and nodes,
 * and waits only for events (pages done, pages in flight, lanes held, the batch completed;
 * the timeouts are guards). One after the other, each sat through its node starts and lease
 * expiries while the other could have run.
 */
describe('batches across a crash', { concurrency: true }, () => {
  test('a batch survives kill -9 of its node: after a restart every page is in the results and charged once', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-batch-crash-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const { site, inFlight } = await slowSite(t);
    const env = {
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_NETWORKS: 'true',
      JOB_LEASE_MS: '1000',
      WEBHOOK_BACKOFF_MS: '100',
      LOG_LEVEL: 'warn',
    };
    const account = await createAccountWithCli(env, CREDITS);
    const receiver = await startWebhookReceiver({ secret: account.webhookSecret });
    t.after(() => receiver.close());
    const urls = urlsOf(site);

    const first = await spawnServe(env);
    servers.push(first);
    const fc1 = new Firecrawl({ apiKey: account.apiKey, apiUrl: first.url });
    const started = await fc1.startBatchScrape(urls, {
      options: { formats: ['markdown'], maxAge: 0 },
      maxConcurrency: 4,
      webhook: { url: receiver.url('/crash') },
    });
    // Some pages done, some loading: then the process dies.
    await statusWhen(fc1, started.id, (status) => status.completed >= 8, 60_000);
    await until(() => inFlight() > 0, 10_000);
    await first.kill();
    const doneAtKill = site.hits('/slow');
    assert.ok(doneAtKill < TOTAL, 'the kill left pages to do');

    const second = await spawnServe(env);
    servers.push(second);
    const fc2 = new Firecrawl({ apiKey: account.apiKey, apiUrl: second.url });
    const job = await checkResults(fc2, started.id, urls);
    await receiver.waitFor(() => pageEvents(receiver, started.id).length >= TOTAL, 60_000);
    await second.stop();

    assert.deepEqual(pageEvents(receiver, started.id).sort(), [...urls].sort());
    assert.equal(receiver.badSignatures(), 0);
    const ledger = await ledgerOf(null, dataDir, account.id);
    const scrapeIds = job.data.map((doc) => String(doc.metadata?.scrapeId));
    const charges = ledger.settled.filter((id) => scrapeIds.includes(id));
    assert.equal(charges.length, TOTAL, 'each page settled once');
    assert.equal(ledger.settled.length, TOTAL, 'nothing else charged');
    assert.equal(job.creditsUsed, TOTAL);
    t.diagnostic(
      `page loads: ${site.hits('/slow')} for ${TOTAL} pages (reloads of pages in flight at the kill)`,
    );
  });

  test('two nodes on one PostgreSQL share a batch, and one finishes what a killed one held', {
    skip: pgSkipReason,
  }, async (t) => {
    const database = await createTestDatabase();
    t.after(() => database.drop());
    const { site } = await slowSite(t);
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: '/nonexistent-unused',
      ALLOW_PRIVATE_NETWORKS: 'true',
      JOB_LEASE_MS: '2000',
      JOB_POLL_MS: '50',
      LOG_LEVEL: 'warn',
      // Half of the batch's 6 lanes per node: the node that took the request (and claims at
      // once) cannot hold them all, so both nodes hold lanes whatever the machine's speed.
      BATCH_SCRAPE_CONCURRENCY: '3',
    };
    // The nodes start while the command line creates the account: they migrate the empty
    // database together, as nodes started at once do.
    const [account, a, b] = await Promise.all([
      createAccountWithCli(env, CREDITS),
      spawnServe(env),
      spawnServe(env),
    ]);
    servers.push(a, b);
    const urls = urlsOf(site);
    const fcA = new Firecrawl({ apiKey: account.apiKey, apiUrl: a.url });
    const started = await fcA.startBatchScrape(urls, {
      options: { formats: ['markdown'], maxAge: 0 },
      maxConcurrency: 6,
    });

    // Both nodes hold lanes of the batch at some point.
    const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent-unused' });
    t.after(() => store.close());
    const holders = new Set<string>();
    await until(async () => {
      const rows = await store.db
        .selectFrom('jobs')
        .select('locked_by')
        .where('kind', '=', 'batch-lane')
        .where('locked_by', 'is not', null)
        .execute();
      for (const row of rows) holders.add(String(row.locked_by).split('/')[0] as string);
      return holders.size >= 2;
    }, 60_000);

    await statusWhen(fcA, started.id, (status) => status.completed >= 10, 60_000);
    await a.kill();
    const fcB = new Firecrawl({ apiKey: account.apiKey, apiUrl: b.url });
    const job = await checkResults(fcB, started.id, urls);
    await b.stop();

    const ledger = await ledgerOf(database.url, '/nonexistent-unused', account.id);
    const scrapeIds = new Set(job.data.map((doc) => String(doc.metadata?.scrapeId)));
    assert.equal(ledger.settled.filter((id) => scrapeIds.has(id)).length, TOTAL);
    assert.equal(ledger.settled.length, TOTAL);
    assert.equal(job.creditsUsed, TOTAL);
  });
});
