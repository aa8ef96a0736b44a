/**
 * The per-account slots as several nodes see them: two stores (two connection pools, as two
 * processes would have) on one PostgreSQL database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresAccountSlots } from '../../../src/scrape/admission/account-slots-pg.js';
import type { Release } from '../../../src/scrape/admission/admission.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { createTestDatabase, pgSkipReason } from '../../helpers/postgres.js';

describe('account slots on PostgreSQL', { skip: pgSkipReason }, () => {
  let database: { url: string; drop(): Promise<void> };
  let stores: Store[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-slots-'));

  before(async () => {
    database = await createTestDatabase();
    stores = [];
    for (let i = 0; i < 2; i += 1) {
      stores.push(await openStore({ databaseUrl: database.url, dataDir }));
    }
  });

  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const nodes = () =>
    stores.map((store, i) => createPostgresAccountSlots(store.db, `node-${i}`)) as [
      ReturnType<typeof createPostgresAccountSlots>,
      ReturnType<typeof createPostgresAccountSlots>,
    ];

  test('25 simultaneous acquisitions from two nodes get exactly the limit of 10', async () => {
    const [a, b] = nodes();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).tryAcquire('acct-race', 10, 60_000)),
    );
    const granted = results.filter((r): r is Release => r !== null);
    assert.equal(granted.length, 10);
    await Promise.all(granted.map((release) => release()));
    assert.notEqual(await a.tryAcquire('acct-race', 1, 60_000), null, 'releases free the slots');
  });

  test('a released slot is free at once on the other node', async () => {
    const [a, b] = nodes();
    const held = await a.tryAcquire('acct-release', 1, 60_000);
    assert.ok(held);
    assert.equal(await b.tryAcquire('acct-release', 1, 60_000), null);
    await held();
    assert.notEqual(await b.tryAcquire('acct-release', 1, 60_000), null);
  });

  test('taking a slot is one statement, and freeing it one delete', async () => {
    const [a] = nodes();
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    /** The statements `work` sends, by their first word. */
    const statementsOf = async <T>(work: () => Promise<T>): Promise<[T, string[]]> => {
      sent.length = 0;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as string | { text: string };
        const text = typeof first === 'string' ? first : first.text;
        sent.push(/^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '?');
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      try {
        return [await work(), [...sent]];
      } finally {
        pg.Client.prototype.query = query;
      }
    };
    const [held, taking] = await statementsOf(() => a.tryAcquire('acct-cost', 2, 60_000));
    assert.ok(held);
    assert.deepEqual(taking, ['select']);
    const [, freeing] = await statementsOf(() => held());
    assert.deepEqual(freeing, ['delete']);
  });

  test('slots of a node that died stop counting once they expire', async () => {
    const [dead, alive] = nodes();
    // The dead node takes every slot and never releases them (kill -9).
    for (let i = 0; i < 3; i += 1) assert.ok(await dead.tryAcquire('acct-dead', 3, 3000));
    // Read after the last acquire: on a loaded machine the three took a while, and every
    // slot must have expired before the release below can sweep them all.
    const expiry = Date.now() + 3000;
    assert.equal(await alive.tryAcquire('acct-dead', 3, 60_000), null);
    await new Promise((r) => setTimeout(r, expiry - Date.now() + 100));
    const slot = await alive.tryAcquire('acct-dead', 3, 60_000);
    assert.ok(slot, 'expired slots no longer count');
    await slot();
    const left = await stores[1]?.db
      .selectFrom('scrape_slots')
      .select('id')
      .where('account_id', '=', 'acct-dead')
      .execute();
    assert.deepEqual(left, [], 'the release swept the expired rows');
  });
});
