/**
 * The `webhook-scrape` job: execute the stored plan, keeping its result before it is settled,
 * then hand over to delivery. Idempotent step by step, so a job taken over after a crash
 * resumes where the dead process stopped: a stored result is never scraped again, and a
 * settled request (a settle or refund row in the ledger) is never settled again.
 */
import type { Kysely } from 'kysely';
import { appError, type ErrorCode } from '../../errors.js';
import type { ScrapeUseCase } from '../../scrape/scrape-use-case.js';
import type { Outcome, ScrapePlan } from '../../scrape/types.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { ClaimedJob, JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import { isSettled, loadResult, saveResult } from '../../store/webhook-results.js';
import type { JobHandler, JobOutcome } from '../job-worker.js';
import { DELIVERY_JOB, type DeliveryPayload, deliveryJobId } from './job-kinds.js';
import { WEBHOOK_MAX_ATTEMPTS } from './retry-schedule.js';
import { outcomeOf, resultOf } from './stored-outcome.js';

export interface ScrapeJobDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  scraper: ScrapeUseCase;
  workerId: string;
  leaseMs: number;
  /** Called once a delivery job is stored (wakes the local delivery worker). */
  onDeliveryQueued?: () => void;
}

/**
 * Admission refusals are not results: the job waits for capacity instead of delivering a
 * 429/503 the caller never asked for. The account's concurrency limit thereby covers
 * webhook scrapes as well as direct ones.
 */
const NO_CAPACITY: ReadonlySet<ErrorCode> = new Set(['TOO_MANY_CONCURRENT', 'NODE_SATURATED']);
const CAPACITY_WAIT_MS = 500;

export function scrapeJobHandler(deps: ScrapeJobDeps): JobHandler {
  const { db, jobs, scraper } = deps;
  /** Settle only while this worker still holds the job, so two holders cannot both settle. */
  const stillHeld = (jobId: string) => jobs.extendLease(jobId, deps.workerId, deps.leaseMs);

  return async (job, signal) => {
    const plan = scraper.restore(job.payload);
    const { requestId } = plan;
    let stored = await loadResult(db, requestId);
    if (!stored && job.attempts > job.maxAttempts) {
      // Every earlier holder died during this scrape: stop trying, refund, tell the receiver.
      const failed: Outcome = { ok: false, error: appError('INTERNAL') };
      await saveResult(db, resultOf(requestId, failed, plan.options.url));
      stored = await loadResult(db, requestId);
    }
    if (!stored) {
      let stop: JobOutcome | null = null;
      await scraper.execute(plan, {
        signal,
        beforeSettle: async (outcome: Outcome) => {
          if (signal.aborted) {
            stop = { type: 'release' };
            return null;
          }
          if (!outcome.ok && NO_CAPACITY.has(outcome.error.code)) {
            const runAt = Date.now() + CAPACITY_WAIT_MS * (0.5 + Math.random());
            stop = { type: 'release', runAt };
            return null;
          }
          await saveResult(db, resultOf(requestId, outcome, plan.options.url));
          // If an earlier holder stored a result first, its result is the one settled and sent.
          const kept = await loadResult(db, requestId);
          if (!kept) throw new Error(`webhook result of ${requestId} vanished before delivery`);
          if (await isSettled(db, requestId)) return null;
          if (!(await stillHeld(job.id))) {
            stop = { type: 'done' };
            return null;
          }
          return outcomeOf(kept);
        },
      });
      if (stop) return stop;
    } else if (!(await isSettled(db, requestId))) {
      // A holder died between storing the result and settling it: settle what it stored.
      if (!(await stillHeld(job.id))) return { type: 'done' };
      await scraper.settle(plan, outcomeOf(stored));
    }
    await handOver(deps, job, plan);
    return { type: 'ended' };
  };
}

/** The delivery job and this job's end commit together. */
async function handOver(deps: ScrapeJobDeps, job: ClaimedJob, plan: ScrapePlan): Promise<void> {
  const { db, jobs } = deps;
  const delivery: DeliveryPayload = {
    requestId: plan.requestId,
    accountId: plan.accountId,
    workflowId: plan.workflowId,
    webhookUrl: plan.options.webhookUrl ?? '',
  };
  await inTransaction(db, async (trx) => {
    await jobs.within(trx).enqueue(DELIVERY_JOB, delivery, {
      id: deliveryJobId(plan.requestId),
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    });
    await jobs.within(trx).complete(job.id, job.lockedBy);
  });
  deps.onDeliveryQueued?.();
}
