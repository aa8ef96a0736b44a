/**
 * The `batch-webhook` job: one POST of a batch event per claim, signed as the native
 * webhooks are (`X-Webhook-Timestamp`, `X-Webhook-Signature`: HMAC-SHA256 of
 * `<timestamp>.<body>` with the account's webhook secret) and, for receivers written for
 * Firecrawl, `X-Firecrawl-Signature` (HMAC-SHA256 of the body alone, same secret). Retried
 * on the native schedule (network errors, 408, 429, 5xx; 8 attempts, about an hour).
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { webhookSecretOf } from '../../accounts/account-store.js';
import type { Database } from '../../store/schema.js';
import type { JobHandler } from '../job-worker.js';
import type { WebhookPoster } from '../webhooks/post-webhook.js';
import { retryDelayMs } from '../webhooks/retry-schedule.js';
import { signWebhook } from '../webhooks/signature.js';
import type { EventPayload } from './job-kinds.js';

export interface EventDeliveryDeps {
  db: Kysely<Database>;
  post: WebhookPoster;
  /** WEBHOOK_BACKOFF_MS: base of the exponential backoff. */
  backoffMs: number;
  /** `User-Agent` of deliveries. Default `pagegrab-webhook/1`. */
  userAgent?: string;
}

/** Headers the caller's own `webhook.headers` may not replace. */
const OWN_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'x-request-id',
  'x-webhook-timestamp',
  'x-webhook-signature',
  'x-firecrawl-signature',
]);

function headersOf(payload: EventPayload, body: Buffer, secret: string, userAgent: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload.headers)) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  return {
    ...headers,
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    'X-Request-Id': payload.webhookId,
    'X-Webhook-Timestamp': String(timestamp),
    'X-Webhook-Signature': signWebhook(secret, timestamp, body),
    'X-Firecrawl-Signature': `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`,
  };
}

export function eventDeliveryJobHandler(deps: EventDeliveryDeps): JobHandler {
  const userAgent = deps.userAgent ?? 'pagegrab-webhook/1';
  return async (job, signal) => {
    const payload = job.payload as EventPayload;
    if (job.attempts > job.maxAttempts) {
      return { type: 'fail', error: job.lastError ?? 'delivery interrupted' };
    }
    const secret = await webhookSecretOf(deps.db, payload.accountId);
    if (secret === null) return { type: 'fail', error: 'account no longer exists' };
    const body = Buffer.from(payload.body, 'utf8');
    const headers = headersOf(payload, body, secret, userAgent);
    const result = await deps.post({ url: payload.url, body, headers }, signal);
    if (result.type === 'delivered') return { type: 'done' };
    if (signal.aborted) return { type: 'release' };
    if (result.type === 'failed' || job.attempts >= job.maxAttempts) {
      return { type: 'fail', error: result.error };
    }
    const runAt = Date.now() + retryDelayMs(job.attempts, deps.backoffMs);
    return { type: 'retry', runAt, error: result.error };
  };
}
