import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStore, type Store } from '../../src/store/db.js';
import { JobQueue } from '../../src/store/job-queue.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';

interface Harness {
  store: Store;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-jobs-'));
  const store = await openStore({ databaseUrl: null, dataDir: dir });
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Harness> {
  const database = await createTestDatabase();
  const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
  return {
    store,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

function suite(name: string, open: () => Promise<Harness>, skip: string | false) {
  describe(`job queue on ${name}`, { skip }, () => {
    let harness: Harness | null = null;
    let now = 1_000_000;
    const clock = () => now;
    const queue = async () => {
      harness ??= await open();
      await harness.store.db.deleteFrom('jobs').execute();
      return new JobQueue(harness.store.db, harness.store.dialect, clock);
    };
    after(() => harness?.close());

    test('a claimed job is leased to one worker and counts an attempt', async () => {
      const jobs = await queue();
      const id = await jobs.enqueue('k', { n: 1 }, { maxAttempts: 3 });
      const [job] = await jobs.claim('w1', ['k'], 10, 1000);
      assert.equal(job?.id, id);
      assert.deepEqual(job?.payload, { n: 1 });
      assert.equal(job?.attempts, 1);
      assert.equal(job?.lockedBy, 'w1');
      assert.deepEqual(await jobs.claim('w2', ['k'], 10, 1000), []);
    });

    test('only due jobs of the asked kinds are claimed, oldest due first, up to the limit', async () => {
      const jobs = await queue();
      await jobs.enqueue('other', {}, { maxAttempts: 1 });
      const later = await jobs.enqueue('k', {}, { maxAttempts: 1, runAt: now + 500 });
      const second = await jobs.enqueue('k', {}, { maxAttempts: 1, runAt: now - 10 });
      const first = await jobs.enqueue('k', {}, { maxAttempts: 1, runAt: now - 20 });
      const claimed = await jobs.claim('w', ['k'], 5, 1000);
      assert.deepEqual(
        claimed.map((j) => j.id),
        [first, second],
      );
      now += 500;
      assert.deepEqual(
        (await jobs.claim('w', ['k'], 1, 1000)).map((j) => j.id),
        [later],
      );
    });

    test('an expired lease (its worker died) lets another worker take the job', async () => {
      const jobs = await queue();
      const id = await jobs.enqueue('k', {}, { maxAttempts: 3 });
      await jobs.claim('dead', ['k'], 1, 1000);
      now += 999;
      assert.deepEqual(await jobs.claim('w2', ['k'], 1, 1000), []);
      now += 1;
      const [job] = await jobs.claim('w2', ['k'], 1, 1000);
      assert.equal(job?.id, id);
      assert.equal(job?.attempts, 2);
      // The dead worker's late answer is refused: the job is w2's now.
      assert.equal(await jobs.complete(id, 'dead'), false);
      assert.equal(await jobs.complete(id, 'w2'), true);
      assert.equal((await jobs.get(id))?.state, 'done');
    });

    test('extending the lease keeps the job away from other workers', async () => {
      const jobs = await queue();
      const id = await jobs.enqueue('k', {}, { maxAttempts: 3 });
      await jobs.claim('w1', ['k'], 1, 1000);
      now += 800;
      assert.equal(await jobs.extendLease(id, 'w1', 1000), true);
      now += 800;
      assert.deepEqual(await jobs.claim('w2', ['k'], 1, 1000), []);
      assert.equal(await jobs.extendLease(id, 'w2', 1000), false);
    });

    test('retry keeps the attempt and the error and waits until run_at', async () => {
      const jobs = await queue();
      const id = await jobs.enqueue('k', {}, { maxAttempts: 3 });
      await jobs.claim('w', ['k'], 1, 1000);
      assert.equal(await jobs.retry(id, 'w', now + 100, 'HTTP 500'), true);
      assert.deepEqual(await jobs.claim('w', ['k'], 1, 1000), []);
      now += 100;
      const [job] = await jobs.claim('w', ['k'], 1, 1000);
      assert.equal(job?.attempts, 2);
      assert.equal(job?.lastError, 'HTTP 500');
      assert.equal(await jobs.fail(id, 'w', 'HTTP 400'), true);
      const view = await jobs.get(id);
      assert.equal(view?.state, 'failed');
      assert.equal(view?.lastError, 'HTTP 400');
      assert.deepEqual(await jobs.claim('w', ['k'], 1, 1000), []);
    });

    test('release gives the job back without counting the attempt', async () => {
      const jobs = await queue();
      const id = await jobs.enqueue('k', {}, { maxAttempts: 3 });
      await jobs.claim('w', ['k'], 1, 1000);
      assert.equal(await jobs.release(id, 'w'), true);
      const [job] = await jobs.claim('w2', ['k'], 1, 1000);
      assert.equal(job?.attempts, 1);
    });

    test('enqueue with a known id is idempotent, and rolls back with its transaction', async () => {
      const jobs = await queue();
      const db = harness?.store.db;
      assert.ok(db);
      await jobs.enqueue('k', { v: 1 }, { maxAttempts: 1, id: 'fixed' });
      await jobs.enqueue('k', { v: 2 }, { maxAttempts: 1, id: 'fixed' });
      assert.equal(await jobs.countQueued('k'), 1);
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await jobs.within(trx).enqueue('k', {}, { maxAttempts: 1, id: 'rolled-back' });
          throw new Error('abort');
        }),
      );
      assert.equal(await jobs.get('rolled-back'), null);
      const [job] = await jobs.claim('w', ['k'], 5, 1000);
      assert.deepEqual(job?.payload, { v: 1 });
    });

    test('concurrent claimers never take the same job', async () => {
      const jobs = await queue();
      const total = 300;
      for (let i = 0; i < total; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => jobs.enqueue('k', { i: i + j }, { maxAttempts: 1 })),
        );
      }
      const seen: string[] = [];
      const claimer = async (worker: string) => {
        for (;;) {
          const batch = await jobs.claim(worker, ['k'], 7, 60_000);
          if (batch.length === 0) return;
          for (const job of batch) {
            seen.push(job.id);
            await jobs.complete(job.id, worker);
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, i) => claimer(`w${i}`)));
      assert.equal(seen.length, total);
      assert.equal(new Set(seen).size, total);
    });

    test('purgeFinished deletes ended jobs older than the cut-off, never queued ones', async () => {
      const jobs = await queue();
      const done = await jobs.enqueue('k', {}, { maxAttempts: 1 });
      const failed = await jobs.enqueue('k', {}, { maxAttempts: 1 });
      const waiting = await jobs.enqueue('k', {}, { maxAttempts: 1, runAt: now + 10_000 });
      await jobs.claim('w', ['k'], 5, 1000);
      await jobs.complete(done, 'w');
      await jobs.fail(failed, 'w', 'x');
      assert.equal(await jobs.purgeFinished(now), 0);
      assert.equal(await jobs.purgeFinished(now + 1), 2);
      assert.equal(await jobs.get(done), null);
      assert.equal((await jobs.get(waiting))?.state, 'queued');
    });

    test('releaseAllLeases frees every held job at once', async () => {
      const jobs = await queue();
      await jobs.enqueue('k', {}, { maxAttempts: 1 });
      await jobs.enqueue('k', {}, { maxAttempts: 1 });
      await jobs.claim('dead', ['k'], 5, 60_000);
      assert.equal(await jobs.releaseAllLeases(), 2);
      assert.equal((await jobs.claim('w', ['k'], 5, 1000)).length, 2);
    });
  });
}

suite('SQLite', sqliteStore, false);
suite('PostgreSQL', postgresStore, pgSkipReason);
