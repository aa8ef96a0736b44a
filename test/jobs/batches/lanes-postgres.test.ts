/**
 * Two nodes on one PostgreSQL (two stores, two workers) share one batch's lanes: each page is
 * loaded once and charged once whichever node ran it, both nodes run some, the batch completes
 * once, and results read the same from either. The scraper is scripted (harness.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount } from '../../../src/accounts/account-store.js';
import { createBatchService } from '../../../src/jobs/batches/batch-service.js';
import { LANE_JOB } from '../../../src/jobs/batches/job-kinds.js';
import { laneJobHandler } from '../../../src/jobs/batches/lane-job.js';
import type { PageRunDeps } from '../../../src/jobs/batches/page-run.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { getBatch } from '../../../src/store/batches.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { JobQueue } from '../../../src/store/job-queue.js';
import { createTestDatabase, pgSkipReason } from '../../helpers/postgres.js';
import { until } from '../../helpers/until.js';
import { eventKeysOf, FakeScraper, ledgerOf, siteUrls } from './harness.js';

function node(store: Store, scraper: FakeScraper, name: string, ran: Map<string, string>) {
  const jobs = new JobQueue(store.db, store.dialect);
  const workerId = `${name}/batch-lane`;
  const counting = Object.create(scraper) as FakeScraper;
  counting.execute = async (plan, options) => {
    ran.set(plan.options.url, name);
    return scraper.execute(plan, options);
  };
  const worker = new JobWorker({
    queue: jobs,
    workerId,
    kinds: [LANE_JOB],
    concurrency: 4,
    leaseMs: 30_000,
    pollMs: 20,
    handler: laneJobHandler({
      db: store.db,
      dialect: store.dialect,
      jobs,
      scraper: counting as unknown as PageRunDeps['scraper'],
      cache: null,
      screenshots: () => ({ link: async () => 'http://127.0.0.1/shot' }),
      workerId,
      leaseMs: 30_000,
      onQueued: () => worker.wake(),
    }),
  });
  return { jobs, worker };
}

test('two nodes on one PostgreSQL share a batch: each page loaded and charged once', {
  skip: pgSkipReason,
}, async (t) => {
  const database = await createTestDatabase();
  const stores = await Promise.all(
    [0, 1].map(() => openStore({ databaseUrl: database.url, dataDir: '/nonexistent-unused' })),
  );
  const [storeA, storeB] = stores as [Store, Store];
  const { account } = await createAccount(storeA.db, {
    name: 't',
    credits: 100,
    concurrencyLimit: 10,
  });
  // One scraper (the pages' one site): it counts loads across both nodes.
  const scraper = new FakeScraper(storeA);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  scraper.hold = () => gate;
  const ran = new Map<string, string>();
  const a = node(storeA, scraper, 'node-a', ran);
  const b = node(storeB, scraper, 'node-b', ran);
  t.after(async () => {
    await Promise.all([a.worker.stop(0), b.worker.stop(0)]);
    await Promise.all(stores.map((store) => store.close()));
    await database.drop();
  });
  const service = createBatchService({
    store: storeA,
    jobs: a.jobs,
    assertAllowed: async () => {},
    retentionMs: 3600_000,
  });
  const urls = siteUrls(24);
  const { id } = await service.start({
    account: { id: account.id, concurrencyLimit: 10 },
    version: 'v2',
    urls,
    options: { formats: ['markdown'], maxAge: 0 },
    maxConcurrency: 6,
    webhook: 'http://hooks.test/',
    baseUrl: 'http://127.0.0.1:1',
  });
  a.worker.start();
  b.worker.start();
  // Held pages fill the 6 lanes; each node has room for 4, so both hold some.
  await until(() => scraper.running === 6, 15_000);
  release();
  await until(async () => (await getBatch(storeB.db, id))?.status === 'completed', 30_000);

  assert.deepEqual(
    [...scraper.loads.values()],
    urls.map(() => 1),
  );
  assert.deepEqual(new Set(ran.values()), new Set(['node-a', 'node-b']));
  assert.equal(scraper.maxRunning, 6);
  const ledger = await ledgerOf(storeA, account.id);
  assert.equal(ledger.settle.length, 24);
  assert.equal(new Set(ledger.settle.map((row) => row.request_id)).size, 24);
  const events = await eventKeysOf(storeA, id);
  assert.equal(events.filter((key) => key === 'completed').length, 1);
  assert.equal(events.filter((key) => key.startsWith('page.')).length, 24);
  const answer = await service.status(account.id, id, {});
  assert.equal(answer?.data.length, 24);
  assert.equal(answer?.creditsUsed, 24);
});
