/**
 * Units that need not survive a power loss (credit reservations, kept results) do not wait
 * for the log's flush on PostgreSQL either; every other transaction still does.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
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
});
