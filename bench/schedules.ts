/**
 * The scheduler under a crowd of schedules (issue 18), on one node:
 *   1. N schedules (default 10,000) all due at the same instant: the time from that instant
 *      until every run is a job in the jobs table (the real Scheduler loop on the real clock:
 *      wake-up, batched claims, job inserts, next due times);
 *   2. then nothing due for an hour: the scheduler's CPU time per second of wall time while
 *      it only watches (its sleep is capped by SCHEDULE_POLL_MS, default 1000), measured
 *      over IDLE_S seconds (default 30) with process.cpuUsage, against the same process
 *      with the scheduler stopped.
 *   node --import tsx bench/schedules.ts [N=10000] [IDLE_S=30] [--batch=500]
 * PostgreSQL instead of the embedded database: PAGEGRAB_TEST_PG_ADMIN_URL=postgres://... and
 * `--postgres` (as scripts/run-tests.mjs provides).
 */
import { loadavg } from 'node:os';
import { createAccount } from '../src/accounts/account-store.js';
import { DEFAULTS } from '../src/config.js';
import { CronCache } from '../src/jobs/schedules/cron-schedule.js';
import { RUN_JOB } from '../src/jobs/schedules/job-kinds.js';
import { Scheduler } from '../src/jobs/schedules/scheduler.js';
import type { Store } from '../src/store/db.js';
import { newId } from '../src/store/ids.js';
import { JobQueue } from '../src/store/job-queue.js';
import { openTestStore } from '../test/helpers/test-store.js';

const numbers = process.argv.filter((a) => /^\d+$/.test(a)).map(Number);
const N = numbers[0] ?? 10_000;
const IDLE_S = numbers[1] ?? 30;
const postgres = process.argv.includes('--postgres');
/** Schedules claimed per transaction (the Scheduler's default is 500). */
const BATCH = Number(
  /^--batch=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--batch=')) ?? '')?.[1] ?? 500,
);
const CHUNK = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The store under test: openTestStore's, on the engine asked for. */
const open = () => openTestStore(postgres ? 'postgres' : 'sqlite');

/** N workflows with an hourly schedule each, all due at `due`. */
async function seed(store: Store, due: number): Promise<void> {
  const { account } = await createAccount(store.db, {
    name: 'bench',
    credits: 0,
    concurrencyLimit: 10,
  });
  const now = Date.now();
  for (let start = 0; start < N; start += CHUNK) {
    const ids = Array.from({ length: Math.min(CHUNK, N - start) }, () => newId());
    await store.db
      .insertInto('workflows')
      .values(
        ids.map((id, i) => ({
          id,
          account_id: account.id,
          name: `w${start + i}`,
          config: JSON.stringify({ url: `http://127.0.0.1:9/${start + i}` }),
          archived: 0,
          credits_spent: 0,
          last_run_at: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await store.db
      .insertInto('workflow_schedules')
      .values(
        ids.map((id) => ({
          workflow_id: id,
          account_id: account.id,
          cron: '0 * * * *',
          timezone: 'Europe/Berlin',
          enabled: 1,
          next_run_at: due,
          disabled_reason: null,
          last_scheduled_for: null,
          last_request_id: null,
          last_status: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const { store, close } = await open();
  try {
    const due = Date.now() + 3000 + N / 2; // after the seeding below
    await seed(store, due);
    const jobs = new JobQueue(store.db, store.dialect);
    const scheduler = new Scheduler({
      store,
      jobs,
      crons: new CronCache(),
      pollMs: DEFAULTS.schedulePollMs,
      misfireMs: DEFAULTS.scheduleMisfireMs,
      batchSize: BATCH,
    });
    if (Date.now() >= due) throw new Error('seeding took longer than planned: raise the margin');
    scheduler.start();
    // Watch from the due time on; the count query is this bench's, not the scheduler's.
    await sleep(due - Date.now());
    let enqueuedAt = 0;
    for (;;) {
      if ((await jobs.countQueued(RUN_JOB)) >= N) {
        enqueuedAt = Date.now();
        break;
      }
      await sleep(50);
    }
    const enqueueMs = enqueuedAt - due;

    // Nothing is due for an hour now: the scheduler only watches.
    await sleep(1000);
    let since = process.cpuUsage();
    let wallStart = performance.now();
    await sleep(IDLE_S * 1000);
    const idleCpuMs = cpuMs(since);
    const idleWallMs = performance.now() - wallStart;
    await scheduler.stop();
    since = process.cpuUsage();
    wallStart = performance.now();
    await sleep(Math.min(IDLE_S, 10) * 1000);
    const baseCpuMs = cpuMs(since);
    const baseWallMs = performance.now() - wallStart;

    const perSecond = (cpu: number, wall: number) => ((cpu / wall) * 1000).toFixed(2);
    console.log(
      JSON.stringify({
        database: store.dialect,
        schedules: N,
        batch: BATCH,
        enqueueAllMs: enqueueMs,
        runsPerSecond: Math.round((N / Math.max(1, enqueueMs)) * 1000),
        idleCpuMsPerSecond: perSecond(idleCpuMs, idleWallMs),
        idleBaselineCpuMsPerSecond: perSecond(baseCpuMs, baseWallMs),
        idleSeconds: IDLE_S,
        loadavg1: loadavg()[0]?.toFixed(2),
      }),
    );
  } finally {
    await close();
  }
}

await main();
