/**
 * The scheduler against both databases, on a test clock (it takes `clock` as the job queue
 * does): it wakes at each due time as the real loop does (the earliest `next_run_at`) and
 * the test reads the jobs it enqueued. Daylight-saving changes in Europe/Berlin, the
 * catch-up rule after a stop, archived workflows, and two schedulers on one database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../../src/accounts/account-store.js';
import { CronCache } from '../../../src/jobs/schedules/cron-schedule.js';
import { RUN_JOB, type RunPayload } from '../../../src/jobs/schedules/job-kinds.js';
import { ScheduleService } from '../../../src/jobs/schedules/schedule-service.js';
import { Scheduler } from '../../../src/jobs/schedules/scheduler.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { JobQueue } from '../../../src/store/job-queue.js';
import { earliestNextRun } from '../../../src/store/schedules.js';
import { WorkflowListCache } from '../../../src/workflows/list-cache.js';
import { WorkflowService } from '../../../src/workflows/workflow-service.js';
import { createTestDatabase, pgSkipReason } from '../../helpers/postgres.js';

const MISFIRE_MS = 60_000;
const ms = (iso: string) => Date.parse(iso);

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`the scheduler (${engine})`, {
    skip: engine === 'postgres' ? pgSkipReason : false,
  }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let accountId: string;
    let clock = 0;
    const crons = new CronCache();
    let schedules: ScheduleService;
    let workflows: WorkflowService;

    before(async () => {
      if (engine === 'postgres') {
        const database = await createTestDatabase();
        store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent-unused' });
        cleanup = async () => {
          await store.close();
          await database.drop();
        };
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'pagegrab-scheduler-'));
        store = await openStore({ databaseUrl: null, dataDir: dir });
        cleanup = async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        };
      }
      ({
        account: { id: accountId },
      } = await createAccount(store.db, { name: 'sched', credits: 10, concurrencyLimit: 2 }));
      schedules = new ScheduleService(store, {
        rules: { minIntervalMs: 60_000, allowSeconds: false },
        crons,
        now: () => clock,
      });
      workflows = new WorkflowService(store, new WorkflowListCache(store), { now: () => clock });
    });
    after(async () => cleanup());

    function scheduler(batchSize?: number) {
      return new Scheduler({
        store,
        jobs: new JobQueue(store.db, store.dialect, () => clock),
        crons,
        pollMs: 1000,
        misfireMs: MISFIRE_MS,
        clock: () => clock,
        ...(batchSize ? { batchSize } : {}),
      });
    }

    async function scheduled(cron: string, timezone: string, at: string): Promise<string> {
      clock = ms(at);
      const workflow = await workflows.create(accountId, {
        name: 'w',
        config: { url: 'http://127.0.0.1:9/' },
      });
      await schedules.put(accountId, workflow.id, { cron, timezone });
      return workflow.id;
    }

    async function runsOf(workflowId: string): Promise<(RunPayload & { runAt: number })[]> {
      const rows = await store.db
        .selectFrom('jobs')
        .select(['payload', 'run_at'])
        .where('kind', '=', RUN_JOB)
        .execute();
      return rows
        .map((row) => ({ ...(JSON.parse(row.payload) as RunPayload), runAt: Number(row.run_at) }))
        .filter((run) => run.workflowId === workflowId)
        .sort((a, b) => a.scheduledFor - b.scheduledFor);
    }

    /** Wakes as the real loop does, a little after each due time, until `until`. */
    async function runUntil(until: string, lateMs = 500): Promise<void> {
      const instance = scheduler();
      for (;;) {
        const earliest = await earliestNextRun(store.db);
        if (earliest === null || earliest > ms(until)) break;
        clock = Math.max(clock, earliest + lateMs);
        await instance.enqueueDue();
      }
      clock = Math.max(clock, ms(until));
    }

    const iso = (runs: { scheduledFor: number }[]) =>
      runs.map((run) => new Date(run.scheduledFor).toISOString());

    test('spring forward: 02:30 Berlin, which does not exist that day, runs once after the gap', async () => {
      const id = await scheduled('30 2 * * *', 'Europe/Berlin', '2027-03-26T12:00:00Z');
      await runUntil('2027-03-29T12:00:00Z');
      await schedules.remove(accountId, id);
      assert.deepEqual(iso(await runsOf(id)), [
        '2027-03-27T01:30:00.000Z', // 02:30 CET
        '2027-03-28T01:00:00.000Z', // 03:00 CEST, right after the skipped hour
        '2027-03-29T00:30:00.000Z', // 02:30 CEST
      ]);
    });

    test('fall back: 02:30 Berlin, which happens twice that day, runs once', async () => {
      const id = await scheduled('30 2 * * *', 'Europe/Berlin', '2027-10-29T12:00:00Z');
      await runUntil('2027-11-01T12:00:00Z');
      await schedules.remove(accountId, id);
      assert.deepEqual(iso(await runsOf(id)), [
        '2027-10-30T00:30:00.000Z', // 02:30 CEST
        '2027-10-31T00:30:00.000Z', // the first 02:30 (CEST), not the second (CET)
        '2027-11-01T01:30:00.000Z', // 02:30 CET
      ]);
    });

    test('fall back: an interval job keeps its pace in real time through the repeated hour', async () => {
      const id = await scheduled('*/30 * * * *', 'Europe/Berlin', '2027-10-30T23:50:00Z');
      await runUntil('2027-10-31T02:10:00Z');
      await schedules.remove(accountId, id);
      assert.deepEqual(iso(await runsOf(id)), [
        '2027-10-31T00:00:00.000Z', // 02:00 CEST
        '2027-10-31T00:30:00.000Z', // 02:30 CEST
        '2027-10-31T01:00:00.000Z', // 02:00 CET
        '2027-10-31T01:30:00.000Z', // 02:30 CET
        '2027-10-31T02:00:00.000Z', // 03:00 CET
      ]);
    });

    test('after a stop, missed due times make one catch-up run, marked, for the latest', async () => {
      const id = await scheduled('0 * * * *', 'UTC', '2027-01-10T09:30:00Z');
      await runUntil('2027-01-10T10:30:00Z'); // 10:00 runs on time
      clock = ms('2027-01-10T15:20:00Z'); // no node ran from 10:30 to 15:20
      assert.equal(await scheduler().enqueueDue(), 1);
      await runUntil('2027-01-10T16:30:00Z'); // 16:00 on time again
      await schedules.remove(accountId, id);
      const runs = await runsOf(id);
      assert.deepEqual(iso(runs), [
        '2027-01-10T10:00:00.000Z',
        '2027-01-10T15:00:00.000Z',
        '2027-01-10T16:00:00.000Z',
      ]);
      assert.deepEqual(
        runs.map((run) => run.catchUp),
        [false, true, false],
      );
      // The catch-up runs now; on-time runs are due at their time.
      assert.equal(runs[1]?.runAt, ms('2027-01-10T15:20:00Z'));
      assert.equal(runs[2]?.runAt, ms('2027-01-10T16:00:00Z'));
    });

    test('a due time seen late but within the misfire window is an ordinary run', async () => {
      const id = await scheduled('0 * * * *', 'UTC', '2027-02-10T09:30:00Z');
      clock = ms('2027-02-10T10:00:45Z');
      await scheduler().enqueueDue();
      await schedules.remove(accountId, id);
      const runs = await runsOf(id);
      assert.deepEqual(iso(runs), ['2027-02-10T10:00:00.000Z']);
      assert.equal(runs[0]?.catchUp, false);
    });

    test('an archived workflow never runs; unarchiving replays nothing it missed', async () => {
      const id = await scheduled('0 * * * *', 'UTC', '2027-03-10T09:30:00Z');
      await workflows.archive(accountId, id);
      await runUntil('2027-03-10T13:30:00Z');
      assert.deepEqual(await runsOf(id), [], 'no run while archived');
      await workflows.unarchive(accountId, id);
      await runUntil('2027-03-10T15:30:00Z');
      await schedules.remove(accountId, id);
      assert.deepEqual(iso(await runsOf(id)), [
        '2027-03-10T14:00:00.000Z',
        '2027-03-10T15:00:00.000Z',
      ]);
    });

    test('two schedulers on one database enqueue each due time once, in batches', async () => {
      clock = ms('2027-04-01T09:59:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 30; i++)
        ids.push(await scheduled('0 * * * *', 'UTC', '2027-04-01T09:59:00Z'));
      clock = ms('2027-04-01T10:00:01Z');
      const counts = await Promise.all([scheduler(7).enqueueDue(), scheduler(7).enqueueDue()]);
      assert.equal(counts[0] + counts[1], 30, `enqueued ${counts}`);
      assert.equal(await scheduler(7).enqueueDue(), 0, 'nothing is due twice');
      for (const id of ids) {
        assert.deepEqual(iso(await runsOf(id)), ['2027-04-01T10:00:00.000Z']);
        await schedules.remove(accountId, id);
      }
    });
  });
}
