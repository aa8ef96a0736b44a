/**
 * A webhook request is two jobs in turn: `webhook-scrape` runs and settles the scrape once,
 * storing its bytes; it then enqueues `webhook-delivery`, which makes the signed POST
 * attempts. Splitting them keeps a delivery retry from ever re-running (re-charging) a scrape.
 */
export const SCRAPE_JOB = 'webhook-scrape';
export const DELIVERY_JOB = 'webhook-delivery';

/**
 * Claims of a scrape job before it gives up and delivers an internal error: only a process
 * dying mid-scrape (a lease that ran out) uses more than one.
 */
export const SCRAPE_MAX_ATTEMPTS = 3;

/** Deterministic job ids make each enqueue idempotent (a re-run enqueues nothing new). */
export const scrapeJobId = (requestId: string) => `${requestId}.scrape`;
export const deliveryJobId = (requestId: string) => `${requestId}.delivery`;

export interface DeliveryPayload {
  requestId: string;
  accountId: string;
  workflowId: string | null;
  webhookUrl: string;
}
