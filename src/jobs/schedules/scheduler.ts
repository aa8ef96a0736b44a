/**
 * The scheduler: turns due schedules into `schedule-run` jobs. Every node runs one; they
 * share the work through the database, never through memory:
 *
 * - it sleeps until the earliest `next_run_at` (one index read), at most SCHEDULE_POLL_MS
 *   so it sees other nodes' changes; nothing else runs while nothing is due;
 * - a due batch is claimed in one transaction (SKIP LOCKED on PostgreSQL): its jobs are
 *   inserted with ids per (workflow, due time) and each row's `next_run_at` moves past now,
 *   together, so a crash in between enqueues nothing or everything, and a due time is
 *   enqueued once however many nodes look at it;
 * - due times missed by more than SCHEDULE_MISFIRE_MS (no node ran) are not replayed one by
 *   one: the latest of them runs once, now, as a catch-up run (its record says so); due
 *   times within that window run as usual; archived workflows' due times pass without a run.
 */
import type { Store } from '../../store/db.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { JobQueue } from '../../store/job-queue.js';
import { claimDueSchedules, type DueSchedule, earliestNextRun } from '../../store/schedules.js';
import type { CronCache } from './cron-schedule.js';
import { RUN_JOB, RUN_MAX_ATTEMPTS, type RunPayload, runJobId } from './job-kinds.js';

export interface SchedulerOptions {
  store: Store;
  jobs: JobQueue;
  crons: CronCache;
  /** SCHEDULE_POLL_MS: the longest sleep, so changes made on other nodes are seen. */
  pollMs: number;
  /** SCHEDULE_MISFIRE_MS: a due time later than this is missed (see the catch-up rule). */
  misfireMs: number;
  /** Schedules claimed per transaction. Default 500. */
  batchSize?: number;
  /** Epoch ms. Default Date.now (tests move time instead of waiting). */
  clock?: () => number;
  /** Told after each batch that enqueued runs (wakes the local run worker). */
  onEnqueued?: (count: number) => void;
  onError?: (error: unknown) => void;
}

/** Due times looked at per schedule and batch at most (a seconds cron after a long stop). */
const MAX_DUE_PER_ROW = 1000;

/** The due times a schedule runs now, and its next due time after now. */
export interface DuePlan {
  runs: { scheduledFor: number; catchUp: boolean }[];
  next: number | null;
}

/**
 * What a due schedule does now: its due times up to now within the misfire window, each an
 * ordinary run; if due times were missed before that window, the latest of them once, as a
 * catch-up run; an archived workflow none. Pure: the same inputs give the same plan, so
 * schedules sharing an expression, zone and due time are planned once per batch.
 */
export function planDue(
  row: Pick<DueSchedule, 'cron' | 'timezone' | 'next_run_at' | 'archived'>,
  crons: CronCache,
  now: number,
  misfireMs: number,
): DuePlan {
  const cron = crons.get(row.cron, row.timezone);
  const next = cron.nextAfter(now);
  if (row.archived) return { runs: [], next };
  const windowStart = now - misfireMs;
  const runs: DuePlan['runs'] = [];
  if (row.next_run_at <= windowStart) {
    // Missed while no node ran: the latest missed due time, once.
    const latest = cron.lastBefore(windowStart + 1) ?? row.next_run_at;
    runs.push({ scheduledFor: Math.max(latest, row.next_run_at), catchUp: true });
  }
  let at: number | null =
    row.next_run_at > windowStart ? row.next_run_at : cron.nextAfter(windowStart);
  while (at !== null && at <= now && runs.length < MAX_DUE_PER_ROW) {
    runs.push({ scheduledFor: at, catchUp: false });
    at = cron.nextAfter(at);
  }
  return { runs, next };
}

export class Scheduler {
  private readonly batchSize: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: SchedulerOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.clock = options.clock ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Look now (a schedule was just saved on this node) rather than at the planned time. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async loop(): Promise<void> {
    let delay = this.options.pollMs;
    try {
      do {
        this.again = false;
        await this.enqueueDue();
        const earliest = await earliestNextRun(this.options.store.db);
        if (earliest !== null) delay = Math.min(delay, Math.max(0, earliest - this.clock()));
      } while (this.again && !this.stopped);
    } catch (error) {
      this.options.onError?.(error);
    }
    if (this.stopped) return;
    // A due time reached is seen within a few milliseconds; never a busy loop.
    this.timer = setTimeout(() => this.wake(), Math.max(5, delay));
    this.timer.unref();
  }

  /** Enqueues every run due now, batch by batch; returns how many runs it enqueued. */
  async enqueueDue(): Promise<number> {
    const { store, jobs, crons, misfireMs } = this.options;
    let total = 0;
    for (;;) {
      const now = this.clock();
      const earliest = await earliestNextRun(store.db);
      if (earliest === null || earliest > now) return total;
      const { claimed, enqueued } = await inTransaction(store.db, async (trx) => {
        const rows = await claimDueSchedules(trx, store.dialect, now, this.batchSize);
        const runs: { id: string; payload: RunPayload; runAt: number }[] = [];
        const byNext = new Map<number | null, string[]>();
        // Evaluating a zoned cron costs ~0.1-0.5 ms: rows that share one are planned once.
        const plans = new Map<string, DuePlan>();
        for (const row of rows) {
          const key = `${row.timezone} ${row.cron} ${row.next_run_at} ${row.archived}`;
          let plan = plans.get(key);
          if (!plan) {
            plan = planDue(row, crons, now, misfireMs);
            plans.set(key, plan);
          }
          for (const { scheduledFor, catchUp } of plan.runs) {
            runs.push({
              id: runJobId(row.workflow_id, scheduledFor),
              payload: {
                workflowId: row.workflow_id,
                accountId: row.account_id,
                scheduledFor,
                catchUp,
              },
              runAt: catchUp ? now : scheduledFor,
            });
          }
          const sharing = byNext.get(plan.next);
          if (sharing) sharing.push(row.workflow_id);
          else byNext.set(plan.next, [row.workflow_id]);
        }
        await jobs.within(trx).enqueueMany(RUN_JOB, runs, RUN_MAX_ATTEMPTS);
        // Schedules sharing an expression share their next due time: one UPDATE per value.
        for (const [next, ids] of byNext) {
          await trx
            .updateTable('workflow_schedules')
            .set({ next_run_at: next })
            .where('workflow_id', 'in', ids)
            .execute();
        }
        return { claimed: rows.length, enqueued: runs.length };
      });
      total += enqueued;
      if (enqueued > 0) this.options.onEnqueued?.(enqueued);
      // Rows another node holds (SKIP LOCKED) are its to enqueue; rows left are for the next batch.
      if (claimed < this.batchSize) return total;
    }
  }
}
