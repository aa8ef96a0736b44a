/**
 * Contract 2.19: concurrent reservations can never take a balance below zero. 1,000
 * concurrent reserves of 1 credit on a balance of 100 leave exactly 0 with exactly 100
 * successes, on the embedded engine, on PostgreSQL, and from two processes sharing one
 * PostgreSQL.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { createAccount, getAccount } from '../../src/accounts/account-store.js';
import { reserveCredits } from '../../src/billing/credit-ledger.js';
import { openStore, type Store } from '../../src/store/db.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';

async function ledgerSummary(store: Store, accountId: string) {
  const rows = await store.db
    .selectFrom('ledger')
    .select(['kind', 'amount', 'balance_after'])
    .where('account_id', '=', accountId)
    .execute();
  const reserves = rows.filter((r) => r.kind === 'reserve');
  return {
    reserves: reserves.length,
    sum: rows.reduce((total, r) => total + Number(r.amount), 0),
    lowest: Math.min(...rows.map((r) => Number(r.balance_after))),
  };
}

async function hammer(store: Store, accountId: string, count: number): Promise<number> {
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => reserveCredits(store.db, accountId, 1, `r-${i}`)),
  );
  return results.filter((r) => r !== null).length;
}

async function checkOne(store: Store): Promise<void> {
  const { account } = await createAccount(store.db, {
    name: 'race',
    credits: 100,
    concurrencyLimit: 10,
  });
  assert.equal(await hammer(store, account.id, 1000), 100);
  assert.equal((await getAccount(store.db, account.id))?.credits, 0);
  assert.deepEqual(await ledgerSummary(store, account.id), { reserves: 100, sum: 0, lowest: 0 });
}

function startWorker(url: string, accountId: string, count: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'reserve-worker.ts'),
      url,
      accountId,
      String(count),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const queue: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else queue.push(line);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const queued = queue.shift();
      if (queued !== undefined) return resolve(queued);
      waiters.push(resolve);
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
  return { child, next };
}

describe('1,000 concurrent reserves of 1 credit on a balance of 100', () => {
  it('take exactly 100 on the embedded engine', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-race-'));
    const store = await openStore({ databaseUrl: null, dataDir });
    try {
      await checkOne(store);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('take exactly 100 on PostgreSQL', { skip: pgSkipReason }, async () => {
    const database = await createTestDatabase();
    const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
    try {
      await checkOne(store);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('take exactly 100 from two processes on one PostgreSQL', { skip: pgSkipReason }, async () => {
    const database = await createTestDatabase();
    const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
    const workers: ReturnType<typeof startWorker>[] = [];
    try {
      const { account } = await createAccount(store.db, {
        name: 'race',
        credits: 100,
        concurrencyLimit: 10,
      });
      workers.push(startWorker(database.url, account.id, 1000));
      workers.push(startWorker(database.url, account.id, 1000));
      for (const worker of workers) assert.equal(await worker.next(), 'ready');
      for (const worker of workers) worker.child.stdin?.write('go\n');
      const counts = await Promise.all(
        workers.map(async (worker) => (JSON.parse(await worker.next()) as { ok: number }).ok),
      );
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        100,
      );
      // Both processes really competed: neither took everything.
      assert.ok(
        counts.every((n) => n > 0),
        `each worker should win some: ${counts.join(', ')}`,
      );
      assert.equal((await getAccount(store.db, account.id))?.credits, 0);
      assert.deepEqual(await ledgerSummary(store, account.id), {
        reserves: 100,
        sum: 0,
        lowest: 0,
      });
    } finally {
      // The workers' connections must be gone before the database is dropped.
      await Promise.all(
        workers.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill();
            }),
        ),
      );
      await store.close();
      await database.drop();
    }
  });
});
