/**
 * One delivery attempt: the address passes the SSRF guard again (DNS may have changed since
 * the request was accepted), then `POST` through the service's HTTP client, whose sockets
 * connect only to addresses the guard vetted (no rebinding between check and connect),
 * within the timeout. Redirects are not followed: a 3xx is an answer like any other non-2xx.
 */
import { isAppError } from '../../errors.js';
import type { HttpClient } from '../../scrape/net/http-client.js';
import { isRetryableStatus, isSuccessStatus } from './retry-schedule.js';

export interface WebhookPost {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
}

export type AttemptResult =
  | { type: 'delivered'; status: number }
  | { type: 'retry'; error: string }
  | { type: 'failed'; error: string };

export interface WebhookPosterOptions {
  /** The service's HTTP client (its address guard, its guarded connections). */
  http: Pick<HttpClient, 'checkAddress' | 'send'>;
  /** WEBHOOK_TIMEOUT_MS: whole-attempt timeout (connect, send, answer). */
  timeoutMs: number;
}

/** Bytes of a receiver's answer read (and dropped) so the socket can be reused. */
const MAX_ANSWER_BYTES = 64 * 1024;

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code;
  const detail = cause instanceof Error ? cause.message : error.message;
  return code && !detail.includes(code) ? `${code}: ${detail}` : detail;
}

export function createWebhookPoster(options: WebhookPosterOptions) {
  const { timeoutMs, http } = options;
  return async function post(delivery: WebhookPost, signal: AbortSignal): Promise<AttemptResult> {
    try {
      await http.checkAddress(delivery.url);
    } catch (error) {
      // A name that no longer resolves may come back; a private address will not.
      if (isAppError(error) && error.code === 'URL_NOT_ALLOWED') {
        return { type: 'failed', error: error.message };
      }
      return { type: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const send = () =>
      http.send(delivery.url, {
        method: 'POST',
        body: delivery.body,
        headers: delivery.headers,
        signal: AbortSignal.any([signal, timeout]),
      });
    try {
      const answer = await send().catch((error: unknown) => {
        // The receiver closed the connection without an answer: most often a kept-alive
        // socket it timed out as we reused it. Send once more on a fresh one within this
        // attempt, as browsers do, rather than wait out the backoff (delivery is at least
        // once, so a receiver that did get the first copy may see the body twice).
        if (!isDroppedConnection(error) || timeout.aborted || signal.aborted) throw error;
        return send();
      });
      await answer.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
      const status = answer.statusCode;
      if (isSuccessStatus(status)) return { type: 'delivered', status };
      const error = `receiver answered HTTP ${status}`;
      return isRetryableStatus(status) ? { type: 'retry', error } : { type: 'failed', error };
    } catch (error) {
      if (timeout.aborted && !signal.aborted) {
        return { type: 'retry', error: `timed out after ${timeoutMs} ms` };
      }
      const refused = isAppError(error) && error.code === 'URL_NOT_ALLOWED';
      if (
        refused ||
        (error as Error).name === 'AddressNotAllowedError' ||
        hasNotAllowedCause(error)
      ) {
        return { type: 'failed', error: networkReason(error) };
      }
      return { type: 'retry', error: networkReason(error) };
    }
  };
}

function isDroppedConnection(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

function hasNotAllowedCause(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === 'ERR_ADDRESS_NOT_ALLOWED';
}

export type WebhookPoster = ReturnType<typeof createWebhookPoster>;
