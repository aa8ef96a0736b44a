/**
 * A crawl node stops promptly: `pagegrab serve` sent SIGTERM while one of its crawl's pages
 * hangs (the site never answers it) exits without waiting for that page, although its
 * SHUTDOWN_GRACE_MS is far longer than the test's guard; the next node on the same DATA_DIR
 * finishes the crawl with every page exactly once. Driven through the Firecrawl SDK.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { startCrawlSite } from '../../helpers/crawl-site.js';
import { until } from '../../helpers/until.js';
import { createAccountWithCli } from '../../jobs/webhooks/serve-process.js';
import { finishedCrawl, scrapeOptions, startNode } from './crawl-nodes.js';

test('a node with a crawl in progress exits on SIGTERM without waiting for a page in flight; another node completes the crawl', {
  timeout: 600_000,
}, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crawl-term-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  // /p/5's first request is never answered: a node that waited for its pages would wait here.
  const site = await startCrawlSite({ pages: 30, delayMs: 20, stallFirst: ['/p/5'] });
  t.after(() => site.close());
  const env = {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_POLL_MS: '50',
    // Far beyond the test's guard: only lanes that do not wait out the grace let it exit.
    SHUTDOWN_GRACE_MS: '600000',
    LOG_LEVEL: 'warn',
  };
  const account = await createAccountWithCli(env, 10_000);
  const first = await startNode(env);
  const fc1 = new Firecrawl({ apiKey: account.apiKey, apiUrl: first.url });
  const started = await fc1.startCrawl(site.url('/'), { scrapeOptions, maxConcurrency: 4 });
  await until(() => site.stalledOpen() > 0, 120_000);
  first.child.kill('SIGTERM');
  const guard = new Promise<'still running'>((resolve) => {
    setTimeout(() => resolve('still running'), 120_000).unref();
  });
  const code = await Promise.race([first.exited, guard]);
  assert.equal(code, 0, `the node exits 0 on SIGTERM: ${first.describe()}`);
  assert.deepEqual(site.abandoned, ['/p/5'], 'the node gave up the page in flight');

  const second = await startNode(env);
  const fc2 = new Firecrawl({ apiKey: account.apiKey, apiUrl: second.url });
  const job = await finishedCrawl(fc2, started.id, 180_000);
  assert.equal(job.status, 'completed');
  const sources = job.data.map((doc) => new URL(String(doc.metadata?.sourceURL)).pathname);
  assert.equal(sources.length, new Set(sources).size, 'every page in the results once');
  assert.deepEqual(
    job.data.map((doc) => new URL(String(doc.metadata?.url)).pathname).sort(),
    [...site.pagePaths()].sort(),
  );
  assert.equal(site.hits.get('/p/5'), 2, 'the abandoned page was loaded again, once');
  await second.stop();
});
