/**
 * A batch's webhook (Firecrawl's `webhook`: a URL, or `{url, headers?, metadata?, events?}`)
 * and its events as Firecrawl sends them: `{success, type: 'batch_scrape.<event>', id,
 * webhookId, data, metadata, error?, timestamp}`. Each event is queued as its own job with a
 * deterministic id, in the transaction that made it happen, so it is sent at least once and
 * exactly one body exists per event: a receiver dedupes on `webhookId`.
 */
import type { Kysely } from 'kysely';
import type { BatchKind } from '../../store/batches.js';
import { newId } from '../../store/ids.js';
import type { JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import { WEBHOOK_MAX_ATTEMPTS } from '../webhooks/retry-schedule.js';
import { EVENT_JOB, type EventPayload, eventJobId } from './job-kinds.js';

export const BATCH_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type BatchEvent = (typeof BATCH_EVENTS)[number];

/** The webhook as the door accepts it. */
export type WebhookInput =
  | string
  | {
      url: string;
      headers?: Record<string, string>;
      metadata?: Record<string, string>;
      events?: BatchEvent[];
    };

export interface BatchWebhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  /** Events to send; default all four. */
  events: BatchEvent[];
}

export function batchWebhookOf(input: WebhookInput): BatchWebhook {
  if (typeof input === 'string')
    return { url: input, headers: {}, metadata: {}, events: [...BATCH_EVENTS] };
  return {
    url: input.url,
    headers: { ...(input.headers ?? {}) },
    metadata: { ...(input.metadata ?? {}) },
    events: [...(input.events ?? BATCH_EVENTS)],
  };
}

export interface EventTarget {
  batchId: string;
  accountId: string;
  /** Names the events: `batch_scrape.<event>` or `crawl.<event>`. Default batch. */
  kind?: BatchKind;
  webhook: BatchWebhook | null;
}

export interface BatchEventBody {
  /** Which event, and for `page` events which page: names the event's job. */
  key: string;
  event: BatchEvent;
  success: boolean;
  data: readonly unknown[];
  error?: string;
}

/**
 * Queues the event if the batch has a webhook that wants it. `db` is the transaction that
 * records what the event reports; `jobs` the queue.
 */
export async function queueBatchEvent(
  db: Kysely<Database>,
  jobs: JobQueue,
  target: EventTarget,
  body: BatchEventBody,
): Promise<boolean> {
  const { webhook } = target;
  if (!webhook?.events.includes(body.event)) return false;
  const webhookId = newId();
  const payload: EventPayload = {
    webhookId,
    batchId: target.batchId,
    accountId: target.accountId,
    url: webhook.url,
    headers: webhook.headers,
    body: JSON.stringify({
      success: body.success,
      type: `${target.kind === 'crawl' ? 'crawl' : 'batch_scrape'}.${body.event}`,
      id: target.batchId,
      webhookId,
      data: body.data,
      metadata: webhook.metadata,
      ...(body.error === undefined ? {} : { error: body.error }),
      timestamp: new Date().toISOString(),
    }),
  };
  await jobs.within(db).enqueue(EVENT_JOB, payload, {
    id: eventJobId(target.batchId, body.key),
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  });
  return true;
}
