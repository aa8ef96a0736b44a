/**
 * The ledger's settle on both engines: the charge is written with the balance it leaves in
 * one statement (one round trip on every scrape), and a reservation still ends once.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CompiledQuery, type Kysely } from 'kysely';
import { createAccount } from '../../src/accounts/account-store.js';
import {
  creditsOf,
  reserveCredits,
  reservedFor,
  reserveRelaxed,
  settleCredits,
} from '../../src/billing/credit-ledger.js';
import { newId } from '../../src/store/ids.js';
import type { Database } from '../../src/store/schema.js';
import { pgSkipReason } from '../helpers/postgres.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

/** `db`, counting the queries sent through it and keeping the last one. */
function counting(db: Kysely<Database>): {
  db: Kysely<Database>;
  sent: () => number;
  last: () => CompiledQuery | null;
} {
  let sent = 0;
  let last: CompiledQuery | null = null;
  const proxy = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === 'executeQuery') {
        return (...args: Parameters<Kysely<Database>['executeQuery']>) => {
          sent++;
          last = args[0] as CompiledQuery;
          return target.executeQuery(...args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, sent: () => sent, last: () => last };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`the credit ledger's settle (${engine})`, {
    skip: engine === 'postgres' && pgSkipReason,
  }, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    test('a settle of what was reserved is one statement that says the balance', async () => {
      harness ??= await openTestStore(engine);
      const { db } = harness.store;
      const { account } = await createAccount(db, {
        name: 'settle',
        credits: 10,
        concurrencyLimit: 10,
      });
      const requestId = newId();
      assert.equal(await reserveCredits(db, account.id, 3, requestId), 7);
      const counted = counting(db);
      assert.equal(await settleCredits(counted.db, account.id, 3, requestId), 7);
      assert.equal(counted.sent(), 1);
      const rows = await db
        .selectFrom('ledger')
        .select(['kind', 'amount', 'balance_after', 'request_id'])
        .where('request_id', '=', requestId)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.kind, Number(row.amount), Number(row.balance_after)]),
        [
          ['reserve', -3, 7],
          ['settle', 3, 7],
        ],
      );
      await assert.rejects(settleCredits(db, account.id, 3, requestId), 'a reservation ends once');
    });

    test("what a request reserved is summed over its reserve rows only, an escalation's too", async () => {
      harness ??= await openTestStore(engine);
      const { db } = harness.store;
      const { account } = await createAccount(db, {
        name: 'reserved',
        credits: 100,
        concurrencyLimit: 10,
      });
      const requestId = newId();
      await reserveCredits(db, account.id, 1, requestId);
      await reserveCredits(db, account.id, 14, requestId);
      await reserveCredits(db, account.id, 5, newId());
      assert.equal(await reservedFor(db, requestId), 15);
      await settleCredits(db, account.id, 15, requestId, 15);
      assert.equal(await reservedFor(db, requestId), 15, 'the settle row is not a reserve');
      if (engine !== 'sqlite') return;
      // The read goes by the request's own index: through the (kind, created_at) index it read
      // every reserve row the ledger ever held, and every door settle grew slower with it.
      const counted = counting(db);
      await reservedFor(counted.db, requestId);
      const query = counted.last();
      assert.ok(query);
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const details = plan.rows.map((row) => row.detail).join('; ');
      assert.match(details, /USING (COVERING )?INDEX ledger_request\b/, details);
    });

    test('a relaxed reserve is one statement on PostgreSQL, exact under concurrency and with its holder', async () => {
      harness ??= await openTestStore(engine);
      const { store } = harness;
      const { account } = await createAccount(store.db, {
        name: 'relaxed',
        credits: 25,
        concurrencyLimit: 10,
      });
      const counted = counting(store.db);
      const hold = { holder: 'node-a', deadlineAt: Date.now() + 60_000 };
      const first = newId();
      assert.equal(
        await reserveRelaxed({ ...store, db: counted.db }, account.id, 5, first, hold),
        20,
      );
      if (engine === 'postgres') assert.equal(counted.sent(), 1);
      const row = await store.db
        .selectFrom('ledger')
        .select(['kind', 'amount', 'balance_after', 'holder', 'deadline_at'])
        .where('request_id', '=', first)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [
          row.kind,
          Number(row.amount),
          Number(row.balance_after),
          row.holder,
          Number(row.deadline_at),
        ],
        ['reserve', -5, 20, 'node-a', hold.deadlineAt],
      );
      // 40 at once on the 20 left: exactly 20 succeed, and a short one writes nothing.
      const results = await Promise.all(
        Array.from({ length: 40 }, () => reserveRelaxed(store, account.id, 1, newId())),
      );
      assert.equal(results.filter((balance) => balance !== null).length, 20);
      assert.equal(await creditsOf(store.db, account.id), 0);
      const reserves = await store.db
        .selectFrom('ledger')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', account.id)
        .where('kind', '=', 'reserve')
        .executeTakeFirstOrThrow();
      assert.equal(Number(reserves.n), 21);
    });

    test('a settle for an account that does not exist fails', async () => {
      harness ??= await openTestStore(engine);
      await assert.rejects(settleCredits(harness.store.db, 'no-such-account', 1, newId()));
    });
  });
}
