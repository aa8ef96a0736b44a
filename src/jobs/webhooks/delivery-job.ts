/**
 * The `webhook-delivery` job: one signed POST per claim (contract 22–23). The request
 * record's webhook state follows every attempt, written in the same commit as the job's
 * retry or end and only while this worker holds the job's lease. When the delivery ends
 * (delivered or failed) the stored bytes go in that commit too, so a job re-claimed after
 * that finds no bytes and just ends.
 */
import type { Kysely } from 'kysely';
import { webhookSecretOf } from '../../accounts/account-store.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { ClaimedJob, JobQueue } from '../../store/job-queue.js';
import { setWebhookState, type WebhookState } from '../../store/run-records.js';
import type { Database } from '../../store/schema.js';
import { deleteResult, loadResult, type StoredResult } from '../../store/webhook-results.js';
import type { JobHandler, JobOutcome } from '../job-worker.js';
import type { DeliveryPayload } from './job-kinds.js';
import type { WebhookPoster } from './post-webhook.js';
import { retryDelayMs } from './retry-schedule.js';
import { signWebhook } from './signature.js';

export interface DeliveryJobDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  post: WebhookPoster;
  /** WEBHOOK_BACKOFF_MS: base of the exponential backoff. */
  backoffMs: number;
  /** `User-Agent` of deliveries. Default `pagegrab-webhook/1`. */
  userAgent?: string;
  /** Told how each attempt ended (for metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
}

/** An attempt delivered, will be retried, or ended the delivery as failed. */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

function deliveryHeaders(
  payload: DeliveryPayload,
  stored: StoredResult,
  secret: string,
  timestamp: number,
  userAgent: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': stored.contentType,
    'User-Agent': userAgent,
    'X-Request-Id': payload.requestId,
    'X-Scrape-Status': stored.scrapeStatus,
    'X-Target-Url': stored.targetUrl,
    'X-Webhook-Timestamp': String(timestamp),
    'X-Webhook-Signature': signWebhook(secret, timestamp, stored.body),
  };
  if (payload.workflowId) headers['X-Workflow-Id'] = payload.workflowId;
  if (stored.targetStatus !== null) headers['X-Target-Status'] = String(stored.targetStatus);
  return headers;
}

export function deliveryJobHandler(deps: DeliveryJobDeps): JobHandler {
  const { db, post } = deps;
  const { backoffMs } = deps;
  const userAgent = deps.userAgent ?? 'pagegrab-webhook/1';

  /**
   * The delivery's end: the job's end, its state and the bytes' removal in one commit. Only
   * the lease holder writes: a worker whose lease ran out (another took the job) leaves the
   * state to the new holder, whose attempt would otherwise overwrite it or find no bytes.
   */
  const end = async (job: ClaimedJob, state: WebhookState): Promise<JobOutcome> => {
    const payload = job.payload as DeliveryPayload;
    await inTransaction(db, async (trx) => {
      const jobs = deps.jobs.within(trx);
      const held =
        state.status === 'delivered'
          ? await jobs.complete(job.id, job.lockedBy)
          : await jobs.fail(job.id, job.lockedBy, state.lastError ?? 'failed');
      if (!held) return;
      await setWebhookState(trx, payload.requestId, state);
      await deleteResult(trx, payload.requestId);
    });
    deps.onAttempt?.(state.status === 'delivered' ? 'delivered' : 'failed');
    return { type: 'ended' };
  };

  /** Another attempt later: the job's retry and the pending state commit together. */
  const retry = async (job: ClaimedJob, state: WebhookState): Promise<JobOutcome> => {
    const payload = job.payload as DeliveryPayload;
    const error = state.lastError ?? 'retry';
    const runAt = Date.now() + retryDelayMs(job.attempts, backoffMs);
    await inTransaction(db, async (trx) => {
      if (!(await deps.jobs.within(trx).retry(job.id, job.lockedBy, runAt, error))) return;
      await setWebhookState(trx, payload.requestId, state);
    });
    deps.onAttempt?.('retry');
    return { type: 'ended' };
  };

  return async (job, signal) => {
    const payload = job.payload as DeliveryPayload;
    const stored = await loadResult(db, payload.requestId);
    if (!stored) return { type: 'done' };
    const state = (status: WebhookState['status'], attempts: number, lastError: string | null) =>
      ({ url: payload.webhookUrl, status, attempts, lastError }) satisfies WebhookState;
    if (job.attempts > job.maxAttempts) {
      // Holders died mid-attempt until the budget ran out.
      return end(job, state('failed', job.maxAttempts, job.lastError ?? 'delivery interrupted'));
    }
    const secret = await webhookSecretOf(db, payload.accountId);
    if (secret === null) {
      return end(job, state('failed', job.attempts - 1, 'account no longer exists'));
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(payload, stored, secret, timestamp, userAgent);
    const result = await post({ url: payload.webhookUrl, body: stored.body, headers }, signal);
    // A 2xx that came back before a shutdown still ends the delivery: releasing it would
    // only make the receiver take the same body again after the restart.
    if (result.type === 'delivered') return end(job, state('delivered', job.attempts, null));
    if (signal.aborted) return { type: 'release' };
    if (result.type === 'failed' || job.attempts >= job.maxAttempts) {
      return end(job, state('failed', job.attempts, result.error));
    }
    return retry(job, state('pending', job.attempts, result.error));
  };
}
