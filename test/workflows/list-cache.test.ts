/**
 * The unpaged list is cached per node and revalidated by the account's version, and its
 * rebuild reuses unchanged row texts: every kind of change, even several within one
 * millisecond, shows in the next list.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { WorkflowListCache } from '../../src/workflows/list-cache.js';
import { saveRunRecord } from '../../src/workflows/run-records.js';
import { WorkflowService } from '../../src/workflows/workflow-service.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { sampleRunRecord } from '../helpers/run-record.js';

interface Listed {
  id: string;
  name: string;
  archived: boolean;
  creditsSpent: number;
  lastRun: string | null;
  config: Record<string, unknown>;
}

async function check(store: Store): Promise<void> {
  const { account } = await createAccount(store.db, { name: 'c', credits: 0, concurrencyLimit: 1 });
  // A frozen clock: every change lands in the same millisecond.
  const service = new WorkflowService(store, { now: () => 1_000_000 });
  const list = async (archived?: boolean) =>
    JSON.parse(
      await service.listJson(account.id, archived === undefined ? {} : { archived }),
    ) as Listed[];
  const config = { url: 'https://example.com/' };
  // Enough other rows that one change is a small share: the rebuild reuses row texts.
  for (let i = 0; i < 8; i++) await service.create(account.id, { name: `filler ${i}`, config });
  const a = await service.create(account.id, { name: 'a', config });
  assert.deepEqual((await list()).map((w) => w.name).slice(0, 2), ['a', 'filler 7']);
  const b = await service.create(account.id, { name: 'b', config });
  assert.deepEqual((await list()).map((w) => w.name).slice(0, 3), ['b', 'a', 'filler 7']);
  await service.rename(account.id, a.id, { name: 'a2' });
  assert.equal((await list()).find((w) => w.id === a.id)?.name, 'a2');
  await service.edit(account.id, a.id, { config: { markdown: true } });
  assert.equal((await list()).find((w) => w.id === a.id)?.config.markdown, true);
  await service.edit(account.id, a.id, { config: { markdown: null } });
  assert.equal((await list()).find((w) => w.id === a.id)?.config.markdown, undefined);
  assert.equal((await list(true)).length, 0);
  await service.archive(account.id, b.id);
  assert.deepEqual(
    (await list(true)).map((w) => w.id),
    [b.id],
  );
  assert.equal((await list()).find((w) => w.id === b.id)?.archived, true);
  await service.unarchive(account.id, b.id);
  assert.equal((await list()).find((w) => w.id === b.id)?.archived, false);
  await store.db.transaction().execute((trx) =>
    saveRunRecord(
      trx,
      sampleRunRecord({
        accountId: account.id,
        workflowId: a.id,
        url: config.url,
        credits: 15,
        createdAt: 1_000_000,
      }),
    ),
  );
  const ran = (await list()).find((w) => w.id === a.id);
  assert.equal(ran?.creditsSpent, 15);
  assert.equal(ran?.lastRun, new Date(1_000_000).toISOString());
}

async function withEmbeddedStore(work: (store: Store) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-cache-'));
  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    await work(store);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('embedded engine: every change shows in the next list', () => withEmbeddedStore(check));

test('PostgreSQL: every change shows in the next list', { skip: pgSkipReason }, async () => {
  const database = await createTestDatabase();
  const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
  try {
    await check(store);
  } finally {
    await store.close();
    await database.drop();
  }
});

test('the cache keeps within its byte budget, evicting the least recently used', () => {
  const cache = new WorkflowListCache({ maxBytes: 100 });
  cache.set('a', 'v1', 'x'.repeat(20)); // 40 bytes
  cache.set('b', 'v1', 'y'.repeat(20));
  assert.equal(cache.get('a', 'v1'), 'x'.repeat(20));
  cache.set('c', 'v1', 'z'.repeat(20)); // 120 > 100: b (least recent) goes
  assert.equal(cache.get('b', 'v1'), undefined);
  assert.equal(cache.get('a', 'v1'), 'x'.repeat(20));
  assert.equal(cache.get('a', 'v2'), undefined, 'another version is a miss');
  cache.set('big', 'v1', 'w'.repeat(60)); // larger than the budget: not kept
  assert.equal(cache.get('big', 'v1'), undefined);
  assert.equal(new WorkflowListCache({ maxBytes: 0 }).enabled, false);
});
