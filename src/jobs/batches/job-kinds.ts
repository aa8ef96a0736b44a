/**
 * A batch runs as lanes: lane n of a batch is a chain of `batch-lane` jobs, each taking one
 * page, running it and, in the transaction that ends the page, completing itself and queueing
 * the lane's next step. A batch has as many lanes as pages may run at once (its
 * `maxConcurrency`, else the account's concurrency limit), so that bound holds on any number
 * of nodes; lanes are ordinary jobs, so nodes sharing one PostgreSQL share a batch's lanes,
 * and a lane whose node died is taken over when its lease runs out. Webhook events are
 * `batch-webhook` jobs, one per event.
 */
export const LANE_JOB = 'batch-lane';
export const EVENT_JOB = 'batch-webhook';

/**
 * Claims of one lane step (one page) before its page is failed: only a process dying while
 * it ran the page uses more than one, so a page that brings its node down is tried 3 times.
 */
export const LANE_MAX_ATTEMPTS = 3;

/** Deterministic ids make every enqueue idempotent (a resumed step enqueues nothing new). */
export const laneJobId = (batchId: string, lane: number, step: number) =>
  `${batchId}.lane.${lane}.${step}`;
export const eventJobId = (batchId: string, key: string) => `${batchId}.event.${key}`;

export interface LanePayload {
  batchId: string;
  lane: number;
  /** Pages this lane ran before this one. */
  step: number;
}

export interface EventPayload {
  /** Unique per event and the same on every attempt: receivers dedupe on it. */
  webhookId: string;
  batchId: string;
  accountId: string;
  url: string;
  /** The caller's own headers (webhook.headers). */
  headers: Record<string, string>;
  /** The JSON body, byte for byte the same on every attempt. */
  body: string;
}
