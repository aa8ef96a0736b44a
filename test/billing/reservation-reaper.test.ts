/**
 * A reservation whose request died with its node is refunded by the sweep, whole (an
 * escalated request's every reserve row) and exactly once even when several nodes sweep at
 * the same moment; settled, refunded, recent and pending-webhook
 * reservations are left alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAccount, getAccount } from '../../src/accounts/account-store.js';
import { refundCredits, reserveCredits, settleCredits } from '../../src/billing/credit-ledger.js';
import {
  refundAbandonedReservations,
  releaseOwnReservations,
} from '../../src/billing/reservation-reaper.js';
import { openStore, type Store } from '../../src/store/db.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';

const HOUR = 60 * 60_000;

async function scenario(store: Store): Promise<void> {
  const { account } = await createAccount(store.db, {
    name: 'reaper',
    credits: 100,
    concurrencyLimit: 10,
  });
  for (const id of ['abandoned-1', 'abandoned-2', 'settled', 'refunded', 'webhook', 'recent']) {
    assert.notEqual(await reserveCredits(store.db, account.id, 10, id), null);
  }
  // An escalated request (its engine went from fetch to browser) reserved twice: one end.
  assert.notEqual(await reserveCredits(store.db, account.id, 5, 'abandoned-2'), null);
  await settleCredits(store.db, account.id, 10, 'settled');
  await refundCredits(store.db, account.id, 10, 'refunded');
  await store.db
    .insertInto('requests')
    .values({
      id: 'webhook',
      account_id: account.id,
      workflow_id: null,
      url: 'http://127.0.0.1/',
      status: 'pending',
      status_code: null,
      target_status: null,
      output_type: 'html',
      render: 0,
      proxy_type: 'datacenter',
      proxy_country: null,
      credits: 0,
      duration_ms: null,
      error: null,
      webhook: null,
      created_at: Date.now(),
    })
    .execute();
  // Everything but "recent" is an hour old.
  await store.db
    .updateTable('ledger')
    .set({ created_at: Date.now() - HOUR })
    .where('request_id', '!=', 'recent')
    .execute();
  assert.equal((await getAccount(store.db, account.id))?.credits, 45);

  const sweeps = await Promise.all([
    refundAbandonedReservations(store.db),
    refundAbandonedReservations(store.db),
    refundAbandonedReservations(store.db),
  ]);
  assert.equal(
    sweeps.reduce((a, b) => a + b, 0),
    2,
    'the two abandoned reservations are refunded once in all',
  );
  assert.equal((await getAccount(store.db, account.id))?.credits, 70);
  const refunds = await store.db
    .selectFrom('ledger')
    .select('request_id')
    .where('kind', '=', 'refund')
    .orderBy('request_id')
    .execute();
  assert.deepEqual(
    refunds.map((r) => r.request_id),
    ['abandoned-1', 'abandoned-2', 'refunded'],
  );
  assert.equal(await refundAbandonedReservations(store.db), 0, 'a second sweep finds nothing');
  await assert.rejects(
    settleCredits(store.db, account.id, 10, 'abandoned-1'),
    'a late settle of a refunded reservation is refused by the database',
  );
}

describe('refundAbandonedReservations', () => {
  it('refunds abandoned reservations exactly once on the embedded engine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrab-reaper-'));
    const store = await openStore({ databaseUrl: null, dataDir: dir });
    try {
      await scenario(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refunds abandoned reservations exactly once on PostgreSQL', {
    skip: pgSkipReason,
  }, async () => {
    const database = await createTestDatabase();
    const store = await openStore({ databaseUrl: database.url, dataDir: '' });
    try {
      await scenario(store);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

/** Held reservations (migration 013): the deadline, not the fixed age, decides. */
async function heldScenario(store: Store): Promise<void> {
  const { account } = await createAccount(store.db, {
    name: 'held',
    credits: 100,
    concurrencyLimit: 10,
  });
  const now = Date.now();
  const hold = (holder: string, deadlineAt: number) => ({ holder, deadlineAt });
  await reserveCredits(store.db, account.id, 10, 'past-deadline', hold('node-a', now - 1));
  await reserveCredits(store.db, account.id, 10, 'before-deadline', hold('node-a', now + HOUR));
  await reserveCredits(store.db, account.id, 10, 'other-node', hold('node-b', now + HOUR));
  await reserveCredits(store.db, account.id, 10, 'job-held', null);

  assert.equal(await refundAbandonedReservations(store.db), 1, 'only the one past its deadline');
  const ended = async () =>
    (
      await store.db
        .selectFrom('ledger')
        .select('request_id')
        .where('kind', '=', 'refund')
        .orderBy('request_id')
        .execute()
    ).map((row) => row.request_id);
  assert.deepEqual(await ended(), ['past-deadline']);

  // node-a starts again: what it held before is dead, node-b's and the job's are not its own.
  const started = Date.now() + 1;
  const released = await releaseOwnReservations(store.db, { holder: 'node-a', before: started });
  assert.equal(released, 1);
  assert.deepEqual(await ended(), ['before-deadline', 'past-deadline']);
  // A reservation this run made after its start is alive.
  await reserveCredits(store.db, account.id, 10, 'this-run', hold('node-a', now + HOUR));
  await store.db
    .updateTable('ledger')
    .set({ created_at: started + 10 })
    .where('request_id', '=', 'this-run')
    .execute();
  assert.equal(await releaseOwnReservations(store.db, { holder: 'node-a', before: started }), 0);
  // The embedded engine's start: every holder's, never the job's.
  assert.equal(await releaseOwnReservations(store.db, { holder: null, before: started }), 1);
  assert.deepEqual(await ended(), ['before-deadline', 'other-node', 'past-deadline']);
  assert.equal((await getAccount(store.db, account.id))?.credits, 100 - 10 - 10);
}

describe('held reservations', () => {
  it('end after their deadline or at their node’s start (embedded engine)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrab-reaper-'));
    const store = await openStore({ databaseUrl: null, dataDir: dir });
    try {
      await heldScenario(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('end after their deadline or at their node’s start (PostgreSQL)', {
    skip: pgSkipReason,
  }, async () => {
    const database = await createTestDatabase();
    const store = await openStore({ databaseUrl: database.url, dataDir: '' });
    try {
      await heldScenario(store);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
