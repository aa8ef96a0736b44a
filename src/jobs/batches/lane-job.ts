/**
 * The `batch-lane` job: one step of one lane of a batch (see job-kinds.ts). It resumes the
 * page its lane holds, or takes the next queued one, runs it (page-run.ts) and then, in one
 * transaction, ends the page, counts it on the batch, queues its webhook events, completes or
 * fails the batch when that is due, completes itself and queues the lane's next step. Only the
 * holder of the step's lease commits that transaction.
 */
import type { Kysely } from 'kysely';
import { getAccount } from '../../accounts/account-store.js';
import { appError, isAppError } from '../../errors.js';
import {
  type Batch,
  completeBatch,
  countPageEnd,
  getBatch,
  stopBatch,
} from '../../store/batches.js';
import {
  type BatchPage,
  chargedFor,
  endPage,
  getPage,
  laneHeldPage,
  setPageSeq,
  takeNextPage,
} from '../../store/batches-pages.js';
import type { Dialect } from '../../store/dialect.js';
import type { ClaimedJob, JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import { isSettled } from '../../store/webhook-results.js';
import type { JobHandler, JobOutcome } from '../job-worker.js';
import { type EventTarget, queueBatchEvent } from './batch-events.js';
import { batchWebhookOfRow } from './batch-options.js';
import { LANE_JOB, LANE_MAX_ATTEMPTS, type LanePayload, laneJobId } from './job-kinds.js';
import { documentOfStored } from './page-result.js';
import { type PageRunDeps, type PageStep, runPage } from './page-run.js';

export interface LaneJobDeps extends PageRunDeps {
  jobs: JobQueue;
  dialect: Dialect;
  workerId: string;
  leaseMs: number;
  /** Told when a lane step or a webhook event was queued (wakes the local workers). */
  onQueued?(kind: 'lane' | 'event'): void;
}

/** Rolls the ending transaction back when the step's lease went to another worker. */
class LeaseLost extends Error {}

export function laneJobHandler(deps: LaneJobDeps): JobHandler {
  const { db } = deps;
  return async (job, signal) => {
    const { batchId, lane } = job.payload as LanePayload;
    const batch = await getBatch(db, batchId);
    if (!batch) return { type: 'done' };
    let page = await laneHeldPage(db, batchId, lane);
    if (!page) {
      if (batch.status !== 'scraping') return { type: 'done' };
      page = await takeNextPage(db, deps.dialect, batchId, lane);
      if (!page) return { type: 'done' };
    }
    const stillHeld = () => deps.jobs.extendLease(job.id, deps.workerId, deps.leaseMs);
    let step: PageStep;
    if (job.attempts > job.maxAttempts && page.result === null) {
      step = await giveUp(deps, page, stillHeld);
    } else {
      try {
        const account = await getAccount(db, batch.accountId);
        if (!account) throw appError('INTERNAL');
        step = await runPage(deps, { batch, page, account, signal, stillHeld });
      } catch (error) {
        // The worker would fail the chain for good on its last attempt: the page fails instead.
        if (job.attempts < job.maxAttempts || signal.aborted) throw error;
        step = isAppError(error)
          ? { type: 'end', state: 'failed', errorCode: error.code, error: error.message }
          : await giveUp(deps, page, stillHeld);
      }
    }
    if (step.type === 'release')
      return { type: 'release', ...(step.runAt ? { runAt: step.runAt } : {}) };
    if (step.type === 'lost' || signal.aborted) return { type: 'done' };
    return endStep(deps, job, batch, page, step);
  };
}

/**
 * Every holder of this step died while the page ran (or kept failing): the page fails, its
 * reservation, if any, is refunded.
 */
async function giveUp(
  deps: LaneJobDeps,
  page: BatchPage,
  stillHeld: () => Promise<boolean>,
): Promise<PageStep> {
  const current = (await getPage(deps.db, page.id)) ?? page;
  if (current.plan && current.requestId && !(await isSettled(deps.db, current.requestId))) {
    if (!(await stillHeld())) return { type: 'lost' };
    const plan = deps.scraper.restore(JSON.parse(current.plan));
    await deps.scraper.settle(plan, { ok: false, error: appError('INTERNAL') });
  }
  const error = appError('INTERNAL');
  return { type: 'end', state: 'failed', errorCode: error.code, error: error.message };
}

async function endStep(
  deps: LaneJobDeps,
  job: ClaimedJob,
  batch: Batch,
  page: BatchPage,
  step: Extract<PageStep, { type: 'end' }>,
): Promise<JobOutcome> {
  const { batchId, lane, step: stepNo } = job.payload as LanePayload;
  const target: EventTarget = {
    batchId,
    accountId: batch.accountId,
    webhook: batchWebhookOfRow(batch),
  };
  let events = 0;
  let next = false;
  try {
    await deps.db.transaction().execute(async (trx) => {
      const queue = (body: Parameters<typeof queueBatchEvent>[3]) =>
        queueBatchEvent(trx, deps.jobs, target, body).then((queued) => {
          if (queued) events++;
        });
      let status = batch.status;
      const current = await getPage(trx, page.id);
      const credits =
        step.state !== 'cancelled' && current?.requestId
          ? await chargedFor(trx, current.requestId)
          : 0;
      if (current && (await endPageIn(trx, page.id, step, credits)) && step.state !== 'cancelled') {
        const after = await countPageEnd(trx, batchId, credits);
        status = after.status;
        await setPageSeq(trx, page.id, after.ended);
        const document =
          step.state === 'done' && current.result
            ? documentOfStored(current.result, { credits, scrapeId: current.requestId })
            : null;
        await queue({
          key: `page.${page.idx}`,
          event: 'page',
          success: document !== null,
          data: document ? [document] : [],
          ...(step.error === null ? {} : { error: step.error }),
        });
        if (step.stopBatch && (await stopBatch(trx, batchId, 'failed', step.stopBatch))) {
          status = 'failed';
          await queue({
            key: 'failed',
            event: 'failed',
            success: false,
            data: [],
            error: step.stopBatch,
          });
        } else if (status === 'scraping' && after.ended >= after.total) {
          if (await completeBatch(trx, batchId)) {
            status = 'completed';
            await queue({ key: 'completed', event: 'completed', success: true, data: [] });
          }
        }
      }
      const jobs = deps.jobs.within(trx);
      if (!(await jobs.complete(job.id, job.lockedBy))) throw new LeaseLost();
      if (status === 'scraping') {
        await jobs.enqueue(LANE_JOB, { batchId, lane, step: stepNo + 1 } satisfies LanePayload, {
          id: laneJobId(batchId, lane, stepNo + 1),
          maxAttempts: LANE_MAX_ATTEMPTS,
        });
        next = true;
      }
    });
  } catch (error) {
    if (error instanceof LeaseLost) return { type: 'done' };
    throw error;
  }
  if (next) deps.onQueued?.('lane');
  if (events > 0) deps.onQueued?.('event');
  return { type: 'ended' };
}

async function endPageIn(
  trx: Kysely<Database>,
  pageId: string,
  step: Extract<PageStep, { type: 'end' }>,
  credits: number,
): Promise<boolean> {
  return endPage(trx, pageId, {
    state: step.state,
    credits,
    errorCode: step.errorCode,
    error: step.error,
    endedAt: Date.now(),
  });
}
