/**
 * How finished scheduled runs count on their schedule (store/run-records.ts →
 * store/schedules.ts), on both databases: a failure adds one, a success resets the count,
 * the failure that reaches the limit disables the schedule with the reason, a record saved
 * twice (pending, then finished, or a retried job) counts once, and the database refuses a
 * second record for one due time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { newId } from '../../src/store/ids.js';
import { type RunRecord, saveRunRecord } from '../../src/store/run-records.js';
import { getSchedule, saveSchedule } from '../../src/store/schedules.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { sampleRunRecord } from '../helpers/run-record.js';

const LIMIT = 3;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`scheduled run outcomes (${engine})`, {
    skip: engine === 'postgres' ? pgSkipReason : false,
  }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let accountId: string;

    before(async () => {
      if (engine === 'postgres') {
        const database = await createTestDatabase();
        store = await openStore({ databaseUrl: database.url, dataDir: '/unused' });
        cleanup = async () => {
          await store.close();
          await database.drop();
        };
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'pagegrab-outcomes-'));
        store = await openStore({ databaseUrl: null, dataDir: dir });
        cleanup = async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        };
      }
      ({
        account: { id: accountId },
      } = await createAccount(store.db, { name: 'o', credits: 0, concurrencyLimit: 1 }));
    });
    after(async () => cleanup());

    async function scheduledWorkflow(): Promise<string> {
      const id = newId();
      const now = Date.now();
      await store.db
        .insertInto('workflows')
        .values({
          id,
          account_id: accountId,
          name: 'w',
          config: '{"url":"http://127.0.0.1:9/"}',
          archived: 0,
          credits_spent: 0,
          last_run_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await saveSchedule(store.db, {
        workflow_id: id,
        account_id: accountId,
        cron: '@hourly',
        timezone: 'UTC',
        enabled: 1,
        next_run_at: now + 3600_000,
        consecutive_failures: 0,
        disabled_reason: null,
        last_scheduled_for: null,
        last_request_id: null,
        last_status: null,
        created_at: now,
        updated_at: now,
      });
      return id;
    }

    let due = Date.UTC(2027, 0, 1);
    function run(workflowId: string, failed: boolean, extra: Partial<RunRecord> = {}): RunRecord {
      due += 3600_000;
      return sampleRunRecord({
        accountId,
        workflowId,
        url: 'http://127.0.0.1:9/',
        ...(failed
          ? {
              status: 'failed',
              statusCode: 402,
              credits: 0,
              error: 'Insufficient credits to make the request.',
            }
          : {}),
        schedule: { scheduledFor: due, catchUp: false, disableAfter: LIMIT },
        ...extra,
      });
    }
    const save = (record: RunRecord) =>
      store.db.transaction().execute((trx) => saveRunRecord(trx, record));
    const state = async (id: string) => {
      const row = await getSchedule(store.db, accountId, id);
      assert.ok(row);
      return row;
    };

    test('failures count up, a success resets them, the limit disables with the reason', async () => {
      const id = await scheduledWorkflow();
      await save(run(id, true));
      await save(run(id, true));
      assert.equal(Number((await state(id)).consecutive_failures), 2);
      const ok = run(id, false);
      await save(ok);
      let row = await state(id);
      assert.equal(Number(row.consecutive_failures), 0);
      assert.equal(row.last_status, 'success');
      assert.equal(row.last_request_id, ok.id);
      for (let i = 0; i < LIMIT - 1; i++) await save(run(id, true));
      row = await state(id);
      assert.equal(row.enabled, 1, 'still running below the limit');
      await save(run(id, true));
      row = await state(id);
      assert.equal(row.enabled, 0);
      assert.equal(row.next_run_at, null);
      assert.equal(
        row.disabled_reason,
        `Disabled after ${LIMIT} consecutive failed runs (last: 402 Insufficient credits to make the request.)`,
      );
    });

    test('a record saved pending then finished, then again, counts once', async () => {
      const id = await scheduledWorkflow();
      const finished = run(id, true);
      await save({ ...finished, status: 'pending', statusCode: null, error: null });
      assert.equal(Number((await state(id)).consecutive_failures), 0, 'pending does not count');
      await save(finished);
      await save(finished);
      assert.equal(Number((await state(id)).consecutive_failures), 1);
    });

    test('the database refuses a second record for one due time', async () => {
      const id = await scheduledWorkflow();
      const first = run(id, false);
      await save(first);
      await assert.rejects(save({ ...first, id: newId() }));
      const rows = await store.db
        .selectFrom('requests')
        .select('id')
        .where('workflow_id', '=', id)
        .execute();
      assert.deepEqual(
        rows.map((r) => r.id),
        [first.id],
      );
    });
  });
}
