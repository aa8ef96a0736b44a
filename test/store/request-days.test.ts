/**
 * The overview's rollup (request_days, migration 012) on both engines: after one-off
 * records (one saved twice, as a retried settle does), pending records that settle later,
 * retried workflow records, failures, records without a host and records older than the
 * window, the rollup's groups and the overview built from them equal a direct aggregate over
 * `requests`; the migration's fill gives the same rollup from the records alone.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { newId } from '../../src/store/ids.js';
import { fillRequestDays } from '../../src/store/migrations/012-request-log-scale.js';
import { DAY_MS, requestDaysTables } from '../../src/store/request-days.js';
import { summarizeUsage, usageOf } from '../../src/store/request-log.js';
import { type RunRecord, saveRunRecord } from '../../src/store/run-records.js';
import type { Database } from '../../src/store/schema.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { sampleRunRecord } from '../helpers/run-record.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';
import { directDayGroups, directTotals } from '../helpers/usage-direct.js';

type Group = Awaited<ReturnType<typeof directDayGroups>>[number];

/** The rollup's rows themselves, as directDayGroups sums the records. */
async function rollupRows(db: Kysely<Database>, accountId: string, firstDay: number) {
  const rows = await requestDaysTables(db)
    .selectFrom('request_days')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('day', '>=', firstDay)
    .where('requests', '>', 0)
    .execute();
  return rows.map((r) => ({
    day: Number(r.day),
    host: r.host,
    status: r.status,
    n: Number(r.requests),
    credits: Number(r.credits),
    ms: Number(r.duration_sum),
    timed: Number(r.timed),
    error: r.error,
  }));
}

const sorted = (groups: Group[]) =>
  [...groups].sort((a, b) =>
    `${a.day} ${a.host} ${a.status}`.localeCompare(`${b.day} ${b.host} ${b.status}`),
  );

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`the overview's rollup (${engine})`, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    test('equals a direct aggregate of the records after inserts, settles and retries, and the fill agrees', async () => {
      harness ??= await openTestStore(engine);
      const { store } = harness;
      const { db } = store;
      const save = (record: RunRecord) => store.transact((trx) => saveRunRecord(trx, record));
      const account = (await createAccount(db, { name: 'days', credits: 0, concurrencyLimit: 1 }))
        .account.id;
      const other = (await createAccount(db, { name: 'other', credits: 0, concurrencyLimit: 1 }))
        .account.id;
      const workflowId = newId();
      await db
        .insertInto('workflows')
        .values({
          id: workflowId,
          account_id: account,
          name: 'days',
          config: '{}',
          archived: 0,
          credits_spent: 0,
          last_run_at: null,
          created_at: Date.now(),
          updated_at: Date.now(),
          change_seq: 1,
        })
        .execute();
      const now = Date.now();
      const today = Math.floor(now / DAY_MS);
      const at = (daysAgo: number, n: number) => (today - daysAgo) * DAY_MS + 3_600_000 + n;

      for (let i = 0; i < 40; i++) {
        const host = ['a.test', 'b.test', 'c.test'][i % 3] as string;
        const failed = i % 5 === 0;
        const record = sampleRunRecord({
          accountId: account,
          workflowId: null,
          url: `https://${host}/p${i}`,
          createdAt: at(i % 35, i),
          status: failed ? 'failed' : 'success',
          credits: failed ? 0 : 1 + (i % 3),
          durationMs: failed ? null : 100 + i * 7,
          error: failed ? `Failed to fetch the page: error ${i % 4}` : null,
        });
        await save(record);
        // A settle repeated by a retried job keeps the first record: counted once.
        if (i % 7 === 0) await save(record);
      }
      // A record without a host, and another account's, which must not show.
      await save(
        sampleRunRecord({
          accountId: account,
          workflowId: null,
          url: 'https://x.test/',
          host: null,
        }),
      );
      await save(sampleRunRecord({ accountId: other, workflowId: null, url: 'https://a.test/' }));
      // Webhook runs: pending first, settled later (one still pending); a retried settle.
      const webhook = {
        url: 'https://hook.test/',
        status: 'pending' as const,
        attempts: 0,
        lastError: null,
      };
      for (let i = 0; i < 4; i++) {
        const pending = sampleRunRecord({
          accountId: account,
          workflowId: null,
          url: `https://b.test/hook${i}`,
          createdAt: at(i, 1000 + i),
          status: 'pending',
          statusCode: null,
          targetStatus: null,
          credits: 3,
          durationMs: null,
          webhook,
        });
        await save(pending);
        if (i === 3) continue;
        const settled: RunRecord =
          i === 2
            ? {
                ...pending,
                status: 'failed',
                credits: 0,
                error: 'Target timed out',
                statusCode: 504,
              }
            : { ...pending, status: 'success', credits: 2, durationMs: 250 + i, statusCode: 200 };
        await save(settled);
        if (i === 0) await save(settled);
      }
      // A workflow run whose record is saved twice with different credits (the retry's wins).
      const workflowRun = sampleRunRecord({
        accountId: account,
        workflowId,
        url: 'https://c.test/wf',
        createdAt: at(1, 2000),
        credits: 1,
      });
      await save(workflowRun);
      await save({ ...workflowRun, credits: 5, durationMs: 900 });

      const firstDay = today - 29;
      const direct = await directDayGroups(db, account, firstDay);
      const rollup = await rollupRows(db, account, firstDay);
      assert.ok(direct.length > 20, `${direct.length} groups`);
      assert.deepEqual(sorted(rollup), sorted(direct));
      const usage = await usageOf(db, account, 30, now);
      assert.deepEqual(
        usage,
        summarizeUsage(await directTotals(db, account, firstDay), firstDay, 30),
      );
      assert.equal(usage.outcomes.pending, 1);
      assert.equal(
        usage.days.reduce((sum, d) => sum + d.requests, 0),
        direct.reduce((s, g) => s + g.n, 0),
      );

      // The migration's fill, from the records alone, gives the same rows.
      const before = sorted(await rollupRows(db, account, 0));
      await sql`delete from request_days`.execute(db);
      await fillRequestDays(db as unknown as Kysely<unknown>);
      assert.deepEqual(sorted(await rollupRows(db, account, 0)), before);
      assert.deepEqual(sorted(await directDayGroups(db, account, 0)), before);
    });

    test('on PostgreSQL the URL search (q) has its trigram index (pg_trgm, migration 012)', {
      skip: engine === 'sqlite' && 'SQLite has no trigram index: q reads the records',
    }, async () => {
      harness ??= await openTestStore(engine);
      const found = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where tablename = 'requests' and indexname = 'requests_url_trgm'`.execute(harness.store.db);
      assert.match(found.rows[0]?.indexdef ?? '', /gin \(lower\(url\) gin_trgm_ops\)/);
    });

    test('without the right to create pg_trgm, migration 012 goes on without the index', {
      skip: engine === 'sqlite' && 'PostgreSQL only',
    }, async () => {
      // A role that may make tables in its database but not extensions (as on a managed
      // server): the savepoint takes the refused CREATE EXTENSION back.
      const database = await createTestDatabase();
      const role = `lowly_${Date.now().toString(36)}`;
      const url = new URL(database.url);
      const asAdmin = async (target: string, statements: string[]) => {
        const client = new pg.Client({ connectionString: target });
        await client.connect();
        try {
          for (const statement of statements) await client.query(statement);
        } finally {
          await client.end();
        }
      };
      const dbName = url.pathname.slice(1);
      await asAdmin(database.url, [
        `create role ${role} login`,
        `revoke create on database ${dbName} from public`,
        `grant create, usage on schema public to ${role}`,
      ]);
      url.username = role;
      let store: Store | null = null;
      try {
        store = await openStore({ databaseUrl: url.href, dataDir: '/nonexistent' });
        const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
          where tablename = 'requests'`.execute(store.db);
        const names = indexes.rows.map((r) => r.indexname);
        assert.ok(names.includes('requests_account_id'), names.join());
        assert.ok(!names.includes('requests_url_trgm'), names.join());
        const days = await sql`select count(*) as n from request_days`.execute(store.db);
        assert.equal(days.rows.length, 1, 'the rollup table was made');
      } finally {
        await store?.close();
        await database.drop();
        await asAdmin(database.url.replace(/\/[^/]*$/, '/postgres'), [`drop role ${role}`]);
      }
    });
  });
}
