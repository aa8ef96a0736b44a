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
import type { Outcome } from '../../scrape/types.js';
import {
  type Batch,
  completeBatch,
  countPageEnd,
  getBatch,
  stopBatch,
  uncountPage,
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
import { openPagesOf } from '../../store/crawls.js';
import type { Dialect } from '../../store/dialect.js';
import { inTransaction, type RunInTransaction } from '../../store/in-transaction.js';
import type { ClaimedJob, JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import { isSettled } from '../../store/webhook-results.js';
import type { JobHandler, JobOutcome } from '../job-worker.js';
import { type EventTarget, queueBatchEvent } from './batch-events.js';
import { batchWebhookOfRow } from './batch-options.js';
import { LANE_JOB, LANE_MAX_ATTEMPTS, type LanePayload, laneJobId } from './job-kinds.js';
import { documentOfStored } from './page-result.js';
import { type PageRedirects, type PageRunDeps, type PageStep, runPage } from './page-run.js';

/**
 * What a crawl adds to its lanes (jobs/crawls/crawl-frontier.ts): its pages are taken
 * politely, checked against robots.txt, and each ended page's links grow the frontier in the
 * transaction that ends it. Null on a node without crawls (tests of batches).
 */
export type TakeAnswer =
  | { type: 'page'; page: BatchPage }
  /** Pages are queued, but their hosts are busy or waiting: try again at `runAt`. */
  | { type: 'wait'; runAt: number }
  /** Nothing queued; pages may still be running (and discover more). */
  | { type: 'empty'; running: number };

export interface LaneFrontier {
  take(batch: Batch, lane: number): Promise<TakeAnswer>;
  /** Before a taken page runs: an ending (robots.txt disallows it), or null to run it. */
  check(batch: Batch, page: BatchPage, signal: AbortSignal): Promise<PageStep | null>;
  /** One run of a page: its redirect hops checked (robots.txt), and where they led. */
  redirects(batch: Batch, page: BatchPage, signal: AbortSignal): PageRedirects;
  /**
   * Within the page's ending transaction: `duplicate` when the URL a redirect took the page
   * to is another page's after all (decided here, one page at a time), else `keep`.
   */
  land(trx: Kysely<Database>, batch: Batch, page: BatchPage): Promise<'keep' | 'duplicate'>;
  /** Whether a target's answer asks the crawl to come back later (and it may still wait). */
  throttled(outcome: Outcome, page: BatchPage): boolean;
  /** Within the page's ending transaction: queue what it found; a text stops the crawl. */
  grow(
    trx: Kysely<Database>,
    batch: Batch,
    page: BatchPage,
  ): Promise<{ added: number; stop?: string }>;
  /**
   * Within a transaction: a throttled page goes back to the queue and its host slows down
   * (for the answer's Retry-After, when it sent one).
   */
  requeue(trx: Kysely<Database>, page: BatchPage, retryAfter?: string): Promise<void>;
}

export interface LaneJobDeps extends PageRunDeps {
  jobs: JobQueue;
  /**
   * Runs the transaction that ends a page (the store's group commit, which shares one fsync
   * among the lanes ending together). Default: a transaction of its own on `db`.
   */
  transact?: RunInTransaction;
  frontier?: LaneFrontier | null;
  dialect: Dialect;
  workerId: string;
  leaseMs: number;
  /** Told when a lane step or a webhook event was queued (wakes the local workers). */
  onQueued?(kind: 'lane' | 'event'): void;
}

/** Rolls the ending transaction back when the step's lease went to another worker. */
class LeaseLost extends Error {}
/** Rolls a crawl's completion back: a page ended meanwhile and queued more. */
class StillOpen extends Error {}

function transactionOf(deps: LaneJobDeps): RunInTransaction {
  return deps.transact ?? ((work) => inTransaction(deps.db, work));
}

export function laneJobHandler(deps: LaneJobDeps): JobHandler {
  const { db } = deps;
  return async (job, signal) => {
    const { batchId, lane } = job.payload as LanePayload;
    const batch = await getBatch(db, batchId);
    if (!batch) return { type: 'done' };
    const frontier = batch.kind === 'crawl' ? (deps.frontier ?? null) : null;
    let page = await laneHeldPage(db, batchId, lane);
    if (!page) {
      if (batch.status !== 'scraping') return { type: 'done' };
      if (frontier) {
        const taken = await frontier.take(batch, lane);
        if (taken.type === 'wait') return { type: 'release', runAt: taken.runAt };
        if (taken.type === 'empty') {
          // Running pages may still find more: look again soon. None left: the crawl is over.
          if (taken.running > 0) return { type: 'release', runAt: Date.now() + 200 };
          return finishCrawl(deps, batch);
        }
        page = taken.page;
      } else {
        page = await takeNextPage(db, deps.dialect, batchId, lane);
        if (!page) return { type: 'done' };
      }
    }
    // A lease extension lost with the machine's power only lets the step be taken over.
    const stillHeld = () =>
      (deps.relaxed ?? ((work) => work(db)))((trx) =>
        deps.jobs.within(trx).extendLease(job.id, deps.workerId, deps.leaseMs),
      );
    let step: PageStep;
    if (job.attempts > job.maxAttempts && page.result === null) {
      step = await giveUp(deps, page, stillHeld);
    } else {
      try {
        const account = await getAccount(db, batch.accountId);
        if (!account) throw appError('INTERNAL');
        const held = page;
        const checked =
          frontier && page.plan === null ? await frontier.check(batch, page, signal) : null;
        step =
          checked ??
          (await runPage(deps, {
            batch,
            page: held,
            account,
            signal,
            stillHeld,
            ...(frontier
              ? {
                  discoverLinks: true,
                  throttled: (outcome) => frontier.throttled(outcome, held),
                  redirects: frontier.redirects(batch, held, signal),
                }
              : {}),
          }));
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
    if (step.type === 'throttled') {
      return frontier
        ? requeueStep(deps, job, frontier, page, step.retryAfter)
        : { type: 'release' };
    }
    return endStep(deps, job, batch, page, step);
  };
}

/** The lane's next step, queued in the transaction that completes this one. */
async function chainNext(deps: LaneJobDeps, trx: Kysely<Database>, job: ClaimedJob) {
  const { batchId, lane, step: stepNo } = job.payload as LanePayload;
  await deps.jobs
    .within(trx)
    .enqueue(LANE_JOB, { batchId, lane, step: stepNo + 1 } satisfies LanePayload, {
      id: laneJobId(batchId, lane, stepNo + 1),
      maxAttempts: LANE_MAX_ATTEMPTS,
    });
}

/** A throttled crawl page goes back to the queue; the lane carries on with its next step. */
async function requeueStep(
  deps: LaneJobDeps,
  job: ClaimedJob,
  frontier: LaneFrontier,
  page: BatchPage,
  retryAfter: string | undefined,
): Promise<JobOutcome> {
  try {
    await transactionOf(deps)(async (trx) => {
      await frontier.requeue(trx, page, retryAfter);
      if (!(await deps.jobs.within(trx).complete(job.id, job.lockedBy))) throw new LeaseLost();
      await chainNext(deps, trx, job);
    });
  } catch (error) {
    if (error instanceof LeaseLost) return { type: 'done' };
    throw error;
  }
  deps.onQueued?.('lane');
  return { type: 'ended' };
}

/** No page queued nor running: the crawl completed (once, whichever lane sees it first). */
async function finishCrawl(deps: LaneJobDeps, batch: Batch): Promise<JobOutcome> {
  const target: EventTarget = {
    batchId: batch.id,
    accountId: batch.accountId,
    kind: batch.kind,
    webhook: batchWebhookOfRow(batch),
  };
  let queued = false;
  try {
    queued = await transactionOf(deps)(async (trx) => {
      // The update locks the batch's row, so a page ending meanwhile (its transaction counts
      // it on that row and queues its links) has committed before the pages are counted.
      if (!(await completeBatch(trx, batch.id))) return false;
      const open = await openPagesOf(trx, batch.id);
      if (open.queued + open.running > 0) throw new StillOpen();
      return queueBatchEvent(trx, deps.jobs, target, {
        key: 'completed',
        event: 'completed',
        success: true,
        data: [],
      });
    });
  } catch (error) {
    if (error instanceof StillOpen) return { type: 'release', runAt: Date.now() + 20 };
    throw error;
  }
  if (queued) deps.onQueued?.('event');
  return { type: 'done' };
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
  ended: Extract<PageStep, { type: 'end' }>,
): Promise<JobOutcome> {
  let step = ended;
  const { batchId } = job.payload as LanePayload;
  const target: EventTarget = {
    batchId,
    accountId: batch.accountId,
    kind: batch.kind,
    webhook: batchWebhookOfRow(batch),
  };
  const frontier = batch.kind === 'crawl' ? (deps.frontier ?? null) : null;
  let events = 0;
  let next = false;
  try {
    await transactionOf(deps)(async (trx) => {
      const queue = (body: Parameters<typeof queueBatchEvent>[3]) =>
        queueBatchEvent(trx, deps.jobs, target, body).then((queued) => {
          if (queued) events++;
        });
      let status = batch.status;
      const current = await getPage(trx, page.id);
      if (
        frontier &&
        current?.state === 'running' &&
        step.state === 'done' &&
        (await frontier.land(trx, batch, current)) === 'duplicate'
      ) {
        step = {
          ...step,
          state: 'redirected',
          error: 'Redirected to a page of this crawl scraped by another',
        };
      }
      const credits =
        step.state !== 'cancelled' && current?.requestId
          ? await chargedFor(trx, current.requestId)
          : 0;
      if (current && (step.state === 'blocked' || step.state === 'redirected')) {
        // robots.txt keeps the crawl from it, or its content is another page's: not a page
        // of the crawl after all.
        if (await endPageIn(trx, page.id, step, credits)) {
          const after = await uncountPage(trx, batchId, credits);
          status = after.status;
          if (status === 'scraping' && after.ended >= after.total) {
            if (await completeBatch(trx, batchId)) {
              status = 'completed';
              await queue({ key: 'completed', event: 'completed', success: true, data: [] });
            }
          }
        }
      } else if (
        current &&
        (await endPageIn(trx, page.id, step, credits)) &&
        step.state !== 'cancelled'
      ) {
        const after = await countPageEnd(trx, batchId, credits);
        status = after.status;
        await setPageSeq(trx, page.id, after.ended);
        const grown =
          frontier && after.status === 'scraping' ? await frontier.grow(trx, batch, current) : null;
        if (grown) after.total += grown.added;
        if (grown?.stop && !step.stopBatch) step = { ...step, stopBatch: grown.stop };
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
        await chainNext(deps, trx, job);
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
