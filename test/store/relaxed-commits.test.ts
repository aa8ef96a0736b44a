/**
 * Units that need not survive a power loss (credit reservations, kept results) do not wait
 * for the log's flush on PostgreSQL either; every other transaction still does.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { pgSkipReason } from '../helpers/postgres.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

describe('relaxed units on PostgreSQL', { skip: pgSkipReason }, () => {
  let harness: TestStore | null = null;
  after(() => harness?.close());

  test('a relaxed unit commits with synchronous_commit off, a durable one and the next transaction with it on', async () => {
    harness = await openTestStore('postgres');
    const { store } = harness;
    const setting = async (trx: typeof store.db) =>
      (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(trx)).rows[0]
        ?.synchronous_commit;
    assert.equal(await store.transact(setting, { durable: false }), 'off');
    assert.equal(await store.transact(setting), 'on');
    assert.equal(await store.db.transaction().execute(setting), 'on');
  });

  test('a relaxed unit sends no SET: its connection starts with synchronous_commit off', async () => {
    harness ??= await openTestStore('postgres');
    const { store } = harness;
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text: string };
      sent.push(typeof first === 'string' ? first : first.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await store.transact((trx) => sql`select 1`.execute(trx), { durable: false });
    } finally {
      pg.Client.prototype.query = query;
    }
    assert.deepEqual(
      sent.map((text) => text.trim().split(/\s+/)[0]?.toLowerCase()),
      ['begin', 'select', 'commit'],
    );
  });

  test('runRelaxed is one statement with synchronous_commit off, outside any transaction', async () => {
    harness ??= await openTestStore('postgres');
    const { store } = harness;
    const rows = await store.runRelaxed(
      CompiledQuery.raw(
        "select current_setting('synchronous_commit') as setting, now() = statement_timestamp() as alone",
      ) as CompiledQuery<{ setting: string; alone: boolean }>,
    );
    assert.deepEqual(rows, [{ setting: 'off', alone: true }]);
    const { rows: durable } = await sql<{ setting: string }>`
      select current_setting('synchronous_commit') as setting`.execute(store.db);
    assert.equal(durable[0]?.setting, 'on');
  });
});
