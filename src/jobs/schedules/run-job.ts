/**
 * The `schedule-run` job: one due time of one schedule, run as the scraper request with
 * `workflow_id` it stands for: the same prepare (workflow, parameters, plan, address,
 * reserve: a 402 is recorded like any refused run), the same execute and settle (credits and
 * the run record in one transaction), and with a `webhook_url` in the saved config the same
 * webhook queue (pending record, scrape job, signed delivery). Its record carries the due
 * time and the catch-up mark.
 *
 * Exactly once: the job id is per (workflow, due time) and the database refuses a second
 * record for one due time (unique index), so a holder that lost its lease, or a new holder
 * after a crash, finds the record and stops; a holder that died before any record simply
 * leaves the run to the next one (its reservation is ended by that node's next start, or by
 * the reaper after its deadline).
 */
import { getAccount } from '../../accounts/account-store.js';
import { refund as refundHeld } from '../../billing/credits.js';
import { type ErrorCode, isAppError } from '../../errors.js';
import type { ScrapeUseCase } from '../../scrape/scrape-use-case.js';
import type { Outcome, ScrapePlan } from '../../scrape/types.js';
import { isDatabaseUnavailable } from '../../store/database-errors.js';
import type { Store } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import type { JobQueue } from '../../store/job-queue.js';
import type { ScheduledRun } from '../../store/run-records.js';
import { findScheduledRecord, isScheduleRunnable } from '../../store/schedules.js';
import type { JobHandler, JobOutcome } from '../job-worker.js';
import type { WebhookQueue } from '../webhooks/webhook-queue.js';
import type { RunPayload } from './job-kinds.js';

export interface RunJobDeps {
  store: Store;
  jobs: JobQueue;
  scraper: ScrapeUseCase;
  /** The webhook queue, for workflows whose config has a webhook_url. */
  webhooks: WebhookQueue;
  workerId: string;
  leaseMs: number;
  /** SCHEDULE_DISABLE_AFTER_FAILURES. */
  disableAfter: number;
}

/** Admission refusals are not outcomes: the run waits for capacity (as webhook scrapes do). */
const NO_CAPACITY: ReadonlySet<ErrorCode> = new Set(['TOO_MANY_CONCURRENT', 'NODE_SATURATED']);
const CAPACITY_WAIT_MS = 500;

export function scheduleRunHandler(deps: RunJobDeps): JobHandler {
  const { store, scraper } = deps;
  const { db } = store;
  const recorded = (p: RunPayload) => findScheduledRecord(db, p.workflowId, p.scheduledFor);
  /** A reservation no record will settle (the run stopped, or another holder recorded). */
  const refund = async (plan: ScrapePlan) => {
    try {
      await refundHeld(db, plan, plan.price);
    } catch (error) {
      // Unreachable: refunded once it answers. Otherwise already ended (the unique "one end
      // per request" index said no).
      if (isDatabaseUnavailable(error)) scraper.refundLater(plan, false);
    }
  };

  return async (job, signal) => {
    const payload = job.payload as RunPayload;
    if (await recorded(payload)) return { type: 'done' };
    if (job.attempts > job.maxAttempts) {
      return { type: 'fail', error: 'every holder of this scheduled run stopped before its end' };
    }
    // Paused, removed or archived since it was enqueued: this due time does not run.
    if (!(await isScheduleRunnable(db, payload.workflowId))) return { type: 'done' };
    const account = await getAccount(db, payload.accountId);
    if (!account) return { type: 'done' };
    const schedule: ScheduledRun = {
      scheduledFor: payload.scheduledFor,
      catchUp: payload.catchUp,
      disableAfter: deps.disableAfter,
    };

    let plan: ScrapePlan;
    try {
      plan = await scraper.prepare(account, { workflow_id: payload.workflowId }, newId(), schedule);
    } catch (error) {
      // A refusal (402, address, proxy) is a run: prepare recorded it, and the count of
      // consecutive failures moved. Anything else is retried, unless a record exists now.
      if (isAppError(error) || (await recorded(payload))) return { type: 'done' };
      throw error;
    }

    if (plan.options.webhookUrl) {
      try {
        await deps.webhooks.enqueue(plan);
      } catch (error) {
        // The queue refunded the reservation; another holder's pending record wins.
        if (await recorded(payload)) return { type: 'done' };
        throw error;
      }
      return { type: 'done' };
    }

    let stop: JobOutcome | null = null;
    try {
      await scraper.execute(plan, {
        signal,
        beforeSettle: async (outcome: Outcome) => {
          if (signal.aborted) {
            stop = { type: 'release' };
            return null;
          }
          if (!outcome.ok && NO_CAPACITY.has(outcome.error.code)) {
            stop = {
              type: 'release',
              runAt: Date.now() + CAPACITY_WAIT_MS * (0.5 + Math.random()),
            };
            return null;
          }
          // Settle only while this worker holds the run: a holder whose lease ran out stops.
          if (!(await deps.jobs.extendLease(job.id, deps.workerId, deps.leaseMs))) {
            stop = { type: 'done' };
            return null;
          }
          return outcome;
        },
      });
    } catch (error) {
      // The settle's transaction rolled back (e.g. another holder recorded this due time).
      await refund(plan);
      if (await recorded(payload)) return { type: 'done' };
      throw error;
    }
    if (stop) {
      await refund(plan);
      return stop;
    }
    return { type: 'done' };
  };
}
