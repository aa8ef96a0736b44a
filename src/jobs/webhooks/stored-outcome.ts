/**
 * A webhook scrape's outcome and its stored form (store/webhook-results.ts), both ways: the
 * job stores what the scrape produced before settling, and a job taken over after a crash
 * settles and delivers what was stored.
 */
import { AppError, type ErrorCode, statusOf } from '../../errors.js';
import { resultBytes } from '../../scrape/output/index.js';
import type { Outcome } from '../../scrape/types.js';
import type { StoredResult } from '../../store/webhook-results.js';

/** The JSON error as the direct call answers it (api/plugins/error-handler.ts sendError). */
export const ERROR_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The stored form of an outcome; `requestedUrl` stands for the target when none answered. */
export function resultOf(requestId: string, outcome: Outcome, requestedUrl: string): StoredResult {
  if (outcome.ok) {
    const { result } = outcome;
    return {
      requestId,
      scrapeStatus: 'success',
      contentType: result.contentType,
      body: resultBytes(result),
      targetStatus: result.targetStatus,
      targetUrl: result.finalUrl,
      errorCode: null,
    };
  }
  return {
    requestId,
    scrapeStatus: 'failed',
    contentType: ERROR_CONTENT_TYPE,
    body: Buffer.from(JSON.stringify({ error: outcome.error.message })),
    targetStatus: null,
    targetUrl: requestedUrl,
    errorCode: outcome.error.code,
  };
}

/** The outcome back from its stored form, to settle a scrape whose process died after it ran. */
export function outcomeOf(stored: StoredResult): Outcome {
  if (stored.scrapeStatus === 'success') {
    return {
      ok: true,
      result: {
        contentType: stored.contentType,
        body: stored.body,
        finalUrl: stored.targetUrl,
        targetStatus: stored.targetStatus ?? 0,
      },
    };
  }
  const code: ErrorCode = stored.errorCode ?? 'INTERNAL';
  const { error } = JSON.parse(stored.body.toString('utf8')) as { error: string };
  return { ok: false, error: new AppError(code, statusOf(code), error, {}) };
}
