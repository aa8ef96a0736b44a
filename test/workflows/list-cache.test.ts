/**
 * The unpaged list is cached per node and brought up to date from the rows whose change
 * number moved: every kind of change, even several within one millisecond, made through
 * this node or another, shows in the next list, also while other lists and changes run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { saveRunRecord } from '../../src/store/run-records.js';
import { WorkflowListCache } from '../../src/workflows/list-cache.js';
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

async function check(store: Store, other: Store = store): Promise<void> {
  const { account } = await createAccount(store.db, { name: 'c', credits: 0, concurrencyLimit: 1 });
  // A frozen clock: every change lands in the same millisecond.
  const service = new WorkflowService(store, new WorkflowListCache(store), {
    now: () => 1_000_000,
  });
  // Another node: its own cache (and on PostgreSQL its own pool), sharing the database.
  const node2 = new WorkflowService(other, new WorkflowListCache(other), {
    now: () => 1_000_000,
  });
  const list = async (archived?: boolean, on: WorkflowService = service) =>
    JSON.parse(
      (await on.listJson(account.id, archived === undefined ? {} : { archived })).toString(),
    ) as Listed[];
  const agree = async () => assert.deepEqual(await list(undefined, node2), await list());
  const config = { url: 'https://example.com/' };
  // Enough other rows that one change is a small share: the rebuild reuses row texts.
  for (let i = 0; i < 8; i++) await service.create(account.id, { name: `filler ${i}`, config });
  const a = await service.create(account.id, { name: 'a', config });
  assert.deepEqual((await list()).map((w) => w.name).slice(0, 2), ['a', 'filler 7']);
  await agree();
  const b = await service.create(account.id, { name: 'b', config });
  assert.deepEqual((await list()).map((w) => w.name).slice(0, 3), ['b', 'a', 'filler 7']);
  await agree();
  await node2.rename(account.id, a.id, { name: 'a2' });
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
  await agree();

  // Rows created in the same millisecond go in id order, wherever they land.
  const later = await Promise.all(
    [1, 2, 3].map((i) => node2.create(account.id, { name: `same ms ${i}`, config })),
  );
  const ids = (await list()).map((w) => w.id);
  const sorted = later.map((w) => w.id).sort((x, y) => (x < y ? 1 : -1));
  assert.deepEqual(ids.slice(0, 3), sorted);
  await agree();

  // Most rows changed at once: the copy is read again whole, still in order.
  for (const w of await list()) await node2.rename(account.id, w.id, { name: `${w.name}!` });
  assert.ok((await list()).every((w) => w.name.endsWith('!')));
  await agree();

  // A caller's own change always shows, even while other lists and changes are in flight.
  for (let i = 0; i < 20; i++) {
    await service.rename(account.id, a.id, { name: `mine ${i}` });
    const [first, second] = await Promise.all([
      list(),
      list(undefined, node2),
      node2.rename(account.id, a.id, { name: `theirs ${i}` }),
    ]);
    for (const seen of [first, second]) {
      const name = seen.find((w) => w.id === a.id)?.name;
      assert.ok(name === `mine ${i}` || name === `theirs ${i}`, `iteration ${i}: ${name}`);
    }
  }
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
  const other = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
  try {
    await check(store, other);
  } finally {
    await store.close();
    await other.close();
    await database.drop();
  }
});

test('the cache keeps within its byte budget, evicting the least recently used', () =>
  withEmbeddedStore(async (store) => {
    const one = await createAccount(store.db, { name: 'one', credits: 0, concurrencyLimit: 1 });
    const two = await createAccount(store.db, { name: 'two', credits: 0, concurrencyLimit: 1 });
    const service = new WorkflowService(store, new WorkflowListCache(store));
    const config = { url: 'https://example.com/' };
    for (let i = 0; i < 20; i++) {
      await service.create(one.account.id, { name: `one ${i}`, config });
      await service.create(two.account.id, { name: `two ${i}`, config });
    }
    const size = (await service.listJson(one.account.id, {})).length;
    // Room for one account's rows and body (~2 × 2 bytes per character, plus per-row overhead).
    const cache = new WorkflowListCache(store, { maxBytes: size * 4 });
    const first = await cache.body(one.account.id);
    assert.deepEqual(cache.held().accounts, 1);
    const second = await cache.body(two.account.id);
    assert.equal(cache.held().accounts, 1, 'the least recently used account was evicted');
    assert.ok(cache.held().bytes <= size * 4);
    assert.deepEqual(await cache.body(one.account.id), first, 'read again after eviction');
    assert.deepEqual(await cache.body(two.account.id), second);
    const off = new WorkflowListCache(store, { maxBytes: 0 });
    assert.deepEqual(await off.body(one.account.id), first, 'a disabled cache still answers');
    assert.deepEqual(off.held(), { accounts: 0, bytes: 0 });
  }));
