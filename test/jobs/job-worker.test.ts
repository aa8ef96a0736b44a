import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type JobHandler, JobWorker } from '../../src/jobs/job-worker.js';
import { openStore, type Store } from '../../src/store/db.js';
import { JobQueue } from '../../src/store/job-queue.js';
import { until } from '../helpers/until.js';

let store: Store;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-worker-'));
  store = await openStore({ databaseUrl: null, dataDir: dir });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function worker(
  kind: string,
  handler: JobHandler,
  extra: { leaseMs?: number; concurrency?: number } = {},
) {
  const queue = new JobQueue(store.db, store.dialect);
  const instance = new JobWorker({
    queue,
    workerId: `w-${kind}-${Math.random()}`,
    kinds: [kind],
    handler,
    pollMs: 20,
    leaseMs: extra.leaseMs ?? 60_000,
    concurrency: extra.concurrency ?? 4,
  });
  return { queue, worker: instance };
}

test('each job is handled and completed; concurrency is never exceeded', async () => {
  let running = 0;
  let peak = 0;
  const { queue, worker: w } = worker(
    'count',
    async () => {
      peak = Math.max(peak, ++running);
      await sleep(15);
      running--;
      return { type: 'done' };
    },
    { concurrency: 3 },
  );
  const ids = await Promise.all(
    Array.from({ length: 12 }, () => queue.enqueue('count', {}, { maxAttempts: 1 })),
  );
  w.start();
  await until(async () => (await queue.countQueued('count')) === 0);
  await w.stop(1000);
  assert.equal(peak, 3);
  for (const id of ids) assert.equal((await queue.get(id))?.state, 'done');
});

test('a handler that throws is retried, then failed at its last attempt', async () => {
  let calls = 0;
  const { queue, worker: w } = worker('throws', async () => {
    calls++;
    throw new Error('boom');
  });
  const id = await queue.enqueue('throws', {}, { maxAttempts: 1 });
  w.start();
  await until(async () => (await queue.get(id))?.state === 'failed');
  await w.stop(1000);
  assert.equal(calls, 1);
  assert.equal((await queue.get(id))?.lastError, 'boom');
});

test('a handler that meets an unreachable database waits for it without using an attempt', async () => {
  let calls = 0;
  const { queue, worker: w } = worker('database-away', async () => {
    calls++;
    // What a pg client reports when the server restarts (issue 24, point 11).
    if (calls === 1) throw Object.assign(new Error('terminating connection'), { code: '57P01' });
    return { type: 'done' };
  });
  const id = await queue.enqueue('database-away', {}, { maxAttempts: 1 });
  w.start();
  await until(async () => (await queue.get(id))?.state === 'done', 30_000);
  await w.stop(1000);
  assert.equal(calls, 2, 'run again, although it had one attempt only');
});

test('stop waits for running handlers within the grace and takes no new job', async () => {
  let finished = 0;
  const { queue, worker: w } = worker(
    'graceful',
    async () => {
      await sleep(200);
      finished++;
      return { type: 'done' };
    },
    { concurrency: 1 },
  );
  const first = await queue.enqueue('graceful', {}, { maxAttempts: 1 });
  w.start();
  await until(() => w.inFlight() === 1);
  const second = await queue.enqueue('graceful', {}, { maxAttempts: 1 });
  await w.stop(5000);
  assert.equal(finished, 1);
  assert.equal((await queue.get(first))?.state, 'done');
  const untouched = await queue.get(second);
  assert.equal(untouched?.state, 'queued');
  assert.equal(untouched?.attempts, 0);
});

test('past the grace a handler is aborted and its job given back, attempt uncounted', async () => {
  let abortReason: unknown;
  const { queue, worker: w } = worker('slow', async (_job, signal) => {
    // Returns only once aborted: stop() can end only through the abort.
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    abortReason = signal.reason;
    return { type: 'retry', runAt: Date.now() + 60_000, error: 'not applied' };
  });
  const id = await queue.enqueue('slow', {}, { maxAttempts: 3 });
  w.start();
  await until(() => w.inFlight() === 1);
  await w.stop(100);
  assert.equal((abortReason as Error | undefined)?.message, 'service shutting down');
  const job = await queue.get(id);
  assert.equal(job?.state, 'queued');
  assert.equal(job?.lockedBy, null);
  assert.equal(job?.attempts, 0);
  assert.equal(job?.lastError, null);
});

test('a short lease is renewed while the handler runs, so no other worker takes the job', async () => {
  let runs = 0;
  const handler: JobHandler = async () => {
    runs++;
    await sleep(700);
    return { type: 'done' };
  };
  const a = worker('leased', handler, { leaseMs: 200 });
  const b = worker('leased', handler, { leaseMs: 200 });
  const id = await a.queue.enqueue('leased', {}, { maxAttempts: 3 });
  a.worker.start();
  await until(() => a.worker.inFlight() === 1);
  b.worker.start();
  await until(async () => (await a.queue.get(id))?.state === 'done');
  await Promise.all([a.worker.stop(1000), b.worker.stop(1000)]);
  assert.equal(runs, 1);
});

test('a release outcome returns the job without counting the attempt', async () => {
  let calls = 0;
  const { queue, worker: w } = worker('later', async (job) => {
    calls++;
    if (calls === 1) return { type: 'release', runAt: Date.now() + 50 };
    assert.equal(job.attempts, 1);
    return { type: 'done' };
  });
  const id = await queue.enqueue('later', {}, { maxAttempts: 1 });
  w.start();
  await until(async () => (await queue.get(id))?.state === 'done');
  await w.stop(1000);
  assert.equal(calls, 2);
});

test('a job its handler released and the worker claims again before it forgot the run is run again', async () => {
  // The claim lands between the release's commit and the worker dropping the finished run
  // (here forced: the release returns only after a claim has taken the job again). The old
  // worker ignored that claim as "still running": the job stayed leased to it, run by nobody,
  // until the lease ran out (a minute here, far beyond this test's guard).
  let calls = 0;
  let reclaimed: (() => void) | null = null;
  let jobId = '';
  class ClaimBetween extends JobQueue {
    override async release(id: string, workerId: string, runAt?: number): Promise<boolean> {
      const released = await super.release(id, workerId, runAt);
      await new Promise<void>((resolve) => {
        reclaimed = resolve;
      });
      return released;
    }
    override async claim(
      workerId: string,
      kinds: readonly string[],
      limit: number,
      leaseMs: number,
    ): Promise<Awaited<ReturnType<JobQueue['claim']>>> {
      const jobs = await super.claim(workerId, kinds, limit, leaseMs);
      // after the worker has launched what it claimed (synchronously, after this returns)
      if (jobs.some((job) => job.id === jobId)) setImmediate(() => reclaimed?.());
      return jobs;
    }
  }
  const queue = new ClaimBetween(store.db, store.dialect);
  const w = new JobWorker({
    queue,
    workerId: `w-reclaim-${Math.random()}`,
    kinds: ['reclaim'],
    handler: async () => {
      calls++;
      return calls === 1 ? { type: 'release' } : { type: 'done' };
    },
    pollMs: 20,
    leaseMs: 60_000,
    concurrency: 2,
  });
  jobId = await queue.enqueue('reclaim', {}, { maxAttempts: 1 });
  w.start();
  await until(async () => (await queue.get(jobId))?.state === 'done', 20_000);
  await w.stop(1000);
  assert.equal(calls, 2);
});
