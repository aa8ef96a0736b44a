/**
 * The `webhook-scrape` job: run the prepared scrape, store its result, settle its credits,
 * hand over to delivery. Idempotent step by step, so a job taken over after a crash resumes
 * where the dead process stopped: a stored result is never scraped again, and a settled
 * request (a settle or refund row in the ledger) is never settled again.
 */
import type { Kysely } from 'kysely';
import { appError, type ErrorCode } from '../../errors.js';
import type { Outcome, PreparedScrape, ScrapeService } from '../../scrape/scrape-service.js';
import type { JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import {
  isSettled,
  loadResult,
  outcomeOf,
  resultOf,
  saveResult,
} from '../../store/webhook-results.js';
import type { JobHandler } from '../job-worker.js';
import { DELIVERY_JOB, type DeliveryPayload, deliveryJobId } from './job-kinds.js';
import { WEBHOOK_MAX_ATTEMPTS } from './retry-schedule.js';

export interface ScrapeJobDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  scraper: ScrapeService;
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
  return async (job, signal) => {
    const prepared = job.payload as PreparedScrape;
    const { requestId } = prepared;
    if (!(await loadResult(db, requestId))) {
      let outcome: Outcome;
      if (job.attempts > job.maxAttempts) {
        // Every earlier holder died during this scrape: stop trying, refund, tell the receiver.
        outcome = { ok: false, error: appError('INTERNAL') };
      } else {
        outcome = await scraper.run(prepared, signal, true);
        if (signal.aborted) return { type: 'release' };
        if (!outcome.ok && NO_CAPACITY.has(outcome.error.code)) {
          return { type: 'release', runAt: Date.now() + CAPACITY_WAIT_MS * (0.5 + Math.random()) };
        }
      }
      await saveResult(db, resultOf(requestId, outcome, prepared.options.url));
    }
    // Reload: if an earlier holder stored a result first, its result is the one settled and sent.
    const stored = await loadResult(db, requestId);
    if (!stored) throw new Error(`webhook result of ${requestId} vanished before delivery`);
    if (!(await isSettled(db, requestId))) {
      // Settle only while this worker still holds the job, so two holders cannot both settle.
      if (!(await jobs.extendLease(job.id, deps.workerId, deps.leaseMs))) return { type: 'done' };
      await scraper.finish(prepared, outcomeOf(stored));
    }
    const delivery: DeliveryPayload = {
      requestId,
      accountId: prepared.accountId,
      workflowId: prepared.workflowId,
      webhookUrl: prepared.options.webhookUrl ?? '',
    };
    // Hand-over and this job's end commit together.
    await db.transaction().execute(async (trx) => {
      await jobs.within(trx).enqueue(DELIVERY_JOB, delivery, {
        id: deliveryJobId(requestId),
        maxAttempts: WEBHOOK_MAX_ATTEMPTS,
      });
      await jobs.within(trx).complete(job.id, job.lockedBy);
    });
    deps.onDeliveryQueued?.();
    return { type: 'ended' };
  };
}
