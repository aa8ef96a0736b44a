/**
 * Where a door hands a prepared webhook scrape: its pending record and its job commit
 * together, so the caller's `ok` means both exist; the scrape runs later on any node.
 */
import { refund } from '../../billing/credits.js';
import { pendingRecord } from '../../scrape/run-record-of.js';
import type { ScrapePlan } from '../../scrape/types.js';
import { isDatabaseUnavailable } from '../../store/database-errors.js';
import type { Store } from '../../store/db.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { JobQueue } from '../../store/job-queue.js';
import { saveRunRecord } from '../../store/run-records.js';
import { SCRAPE_JOB, SCRAPE_MAX_ATTEMPTS, scrapeJobId } from './job-kinds.js';

export interface WebhookQueue {
  /** Stores the plan as a job (its credits are already reserved). */
  enqueue(plan: ScrapePlan): Promise<void>;
}

export function createWebhookQueue(
  store: Store,
  jobs: JobQueue,
  onQueued: () => void,
  /** Where a refund goes when the database cannot take it now (ScrapeUseCase.refundLater). */
  refundLater?: (plan: ScrapePlan) => void,
): WebhookQueue {
  return {
    async enqueue(plan) {
      try {
        await inTransaction(store.db, async (trx) => {
          await saveRunRecord(trx, pendingRecord(plan));
          await jobs.within(trx).enqueue(SCRAPE_JOB, plan, {
            id: scrapeJobId(plan.requestId),
            maxAttempts: SCRAPE_MAX_ATTEMPTS,
          });
        });
      } catch (error) {
        // Nothing will run: give the reservation back before the caller sees the error, or,
        // the database being unreachable (a 503), as soon as it answers again.
        try {
          await refund(store.db, plan, plan.price);
        } catch (refundError) {
          if (!isDatabaseUnavailable(refundError) || !refundLater) throw refundError;
          refundLater(plan);
        }
        throw error;
      }
      onQueued();
    },
  };
}
