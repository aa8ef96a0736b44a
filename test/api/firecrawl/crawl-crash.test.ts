/**
 * Crawls survive their node: `pagegrab serve` killed with SIGKILL mid-crawl, then started
 * again on the same DATA_DIR, finishes the crawl with every page in the results exactly once
 * and charged exactly once (two nodes sharing a crawl: crawl-two-nodes.test.ts). Driven
 * through the Firecrawl SDK.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { openStore } from '../../../src/store/db.js';
import { startCrawlSite } from '../../helpers/crawl-site.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { createAccountWithCli } from '../../jobs/webhooks/serve-process.js';
import {
  expectedPaths,
  finishedCrawl,
  landedPathsOf,
  scrapeOptions,
  startNode,
} from './crawl-nodes.js';

async function settledOf(databaseUrl: string | null, dataDir: string, accountId: string) {
  const store = await openStore({ databaseUrl, dataDir });
  try {
    const rows = await store.db
      .selectFrom('ledger')
      .select(['request_id'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'settle')
      .execute();
    return rows.map((row) => String(row.request_id));
  } finally {
    await store.close();
  }
}

test('a crawl survives kill -9 of its node: after a restart every page is in the results once and charged once', {
  timeout: 600_000,
}, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crawl-crash-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const site = await startCrawlSite({ pages: 60, delayMs: 100 });
  t.after(() => site.close());
  const env = {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_LEASE_MS: '1000',
    JOB_POLL_MS: '50',
    WEBHOOK_BACKOFF_MS: '100',
    LOG_LEVEL: 'warn',
  };
  const account = await createAccountWithCli(env, 10_000);
  const receiver = await startWebhookReceiver({ secret: account.webhookSecret });
  t.after(() => receiver.close());

  const first = await startNode(env);
  const fc1 = new Firecrawl({ apiKey: account.apiKey, apiUrl: first.url });
  const started = await fc1.startCrawl(site.url('/'), {
    scrapeOptions,
    maxConcurrency: 4,
    webhook: { url: receiver.url('/crash') },
  });
  await until(
    async () => (await fc1.getCrawlStatus(started.id, { autoPaginate: false })).completed >= 10,
    300_000,
  );
  await until(() => site.inFlight() > 0, 10_000);
  await first.kill();
  const loadsAtKill = [...site.hits.values()].reduce((a, b) => a + b, 0);

  const second = await startNode(env);
  const fc2 = new Firecrawl({ apiKey: account.apiKey, apiUrl: second.url });
  const job = await finishedCrawl(fc2, started.id, 300_000);
  assert.equal(job.status, 'completed');
  const sources = job.data.map((doc) => new URL(String(doc.metadata?.sourceURL)).pathname);
  assert.equal(sources.length, new Set(sources).size, 'every page in the results once');
  assert.deepEqual(landedPathsOf(job.data), expectedPaths(site));
  assert.equal(job.total, sources.length);
  await receiver.waitFor(() => {
    const ids = new Set<string>();
    for (const d of receiver.deliveries) {
      const body = JSON.parse(d.body.toString('utf8'));
      if (body.id === started.id && body.type === 'crawl.page') ids.add(body.webhookId);
    }
    return ids.size >= sources.length;
  }, 60_000);
  await second.stop();

  const settled = await settledOf(null, dataDir, account.id);
  const scrapeIds = new Set(job.data.map((doc) => String(doc.metadata?.scrapeId)));
  assert.equal(settled.filter((id) => scrapeIds.has(id)).length, sources.length);
  assert.equal(settled.length, sources.length, 'each page charged once, nothing else');
  assert.equal(job.creditsUsed, sources.length);
  // Only pages in flight at the kill (at most 4 lanes) may have been loaded again, beside
  // /old/1 and the second load of /p/1 its redirect makes when both ran at once.
  const loads = [...site.hits.entries()]
    .filter(([path]) => path.startsWith('/p/') || path === '/' || path.startsWith('/old/'))
    .reduce((a, [, n]) => a + n, 0);
  assert.ok(loads <= sources.length + 2 + 4, `${loads} page loads for ${sources.length} pages`);
  t.diagnostic(`page loads: ${loads} for ${sources.length} pages (${loadsAtKill} before the kill)`);
});
