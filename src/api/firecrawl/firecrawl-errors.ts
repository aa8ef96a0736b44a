/**
 * The Firecrawl door's answers to failures: Firecrawl's envelope `{success: false, error,
 * code?, details?}` and its statuses (400, 401, 402, 403, 404, 408, 429, 500, 503), translated from
 * the service's catalog (src/errors.ts) and HTTP's own errors. The texts stay ours: they say
 * what happened; the codes are Firecrawl's where it has one.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, isAppError } from '../../errors.js';
import { asDatabaseUnavailable } from '../../store/database-errors.js';
import { fromFastifyError, type HttpErrorCode, isHttpError } from '../http-errors.js';

/** One problem of a request body, shaped like the zod issues Firecrawl answers with. */
export interface BodyIssue {
  code: 'unrecognized_keys' | 'invalid_type' | 'invalid_value' | 'too_small' | 'too_big' | 'custom';
  path: (string | number)[];
  message: string;
  keys?: string[];
}

/** Firecrawl's text when a body has a field it does not know (its strict schemas). */
export const UNRECOGNIZED_KEYS =
  'Unrecognized key in body -- please review the v2 API documentation for request body changes';

export class FirecrawlBodyError extends Error {
  constructor(readonly issues: BodyIssue[]) {
    const first = issues[0];
    super(
      issues.some((issue) => issue.code === 'unrecognized_keys')
        ? UNRECOGNIZED_KEYS
        : first?.code === 'custom'
          ? first.message
          : 'Bad Request',
    );
    this.name = 'FirecrawlBodyError';
  }
}

export interface FirecrawlErrorAnswer {
  status: number;
  error: string;
  code?: string;
  details?: unknown;
  /** Response headers (Retry-After on a 503), not part of the body. */
  headers?: Readonly<Record<string, string>>;
}

/** The catalog's failures as Firecrawl states them: its status and code. */
const appCodes: Record<ErrorCode, [number, string]> = {
  WORKFLOW_NOT_FOUND: [404, 'NOT_FOUND'],
  WORKFLOW_ARCHIVED: [400, 'BAD_REQUEST'],
  REQUEST_NOT_FOUND: [404, 'NOT_FOUND'],
  RESULT_NOT_KEPT: [404, 'NOT_FOUND'],
  KEY_NOT_FOUND: [404, 'NOT_FOUND'],
  LAST_KEY: [400, 'BAD_REQUEST'],
  TOO_MANY_KEYS: [400, 'BAD_REQUEST'],
  ONLY_KEY_NAME: [400, 'BAD_REQUEST'],
  BAD_REQUEST: [400, 'BAD_REQUEST'],
  URL_REQUIRED: [400, 'BAD_REQUEST'],
  JSON_TOO_DEEP: [400, 'BAD_REQUEST'],
  INVALID_PARAMETER: [400, 'BAD_REQUEST'],
  UNKNOWN_PARAMETER: [400, 'BAD_REQUEST'],
  ONE_OUTPUT_TYPE: [400, 'BAD_REQUEST'],
  REQUIRES_RENDER: [400, 'BAD_REQUEST'],
  INVALID_INSTRUCTION: [400, 'BAD_REQUEST'],
  // Firecrawl refuses sites it will not scrape with 403.
  URL_NOT_ALLOWED: [403, 'URL_BLOCKED'],
  PROXY_UNAVAILABLE: [400, 'BAD_REQUEST'],
  NAME_REQUIRED: [400, 'BAD_REQUEST'],
  INVALID_NAME: [400, 'BAD_REQUEST'],
  CONFIG_REQUIRED: [400, 'BAD_REQUEST'],
  UNKNOWN_CONFIG_FIELD: [400, 'BAD_REQUEST'],
  ONLY_NAME_AND_CONFIG: [400, 'BAD_REQUEST'],
  NOTHING_TO_EDIT: [400, 'BAD_REQUEST'],
  ONLY_NAME_RENAME: [400, 'BAD_REQUEST'],
  // Schedules are native only; the door never raises these.
  SCHEDULE_NOT_FOUND: [404, 'NOT_FOUND'],
  CRON_REQUIRED: [400, 'BAD_REQUEST'],
  INVALID_CRON: [400, 'BAD_REQUEST'],
  INVALID_TIMEZONE: [400, 'BAD_REQUEST'],
  SCHEDULE_TOO_FREQUENT: [400, 'BAD_REQUEST'],
  INVALID_ENABLED: [400, 'BAD_REQUEST'],
  ONLY_SCHEDULE_FIELDS: [400, 'BAD_REQUEST'],
  INSUFFICIENT_CREDITS: [402, 'INSUFFICIENT_CREDITS'],
  INSTRUCTION_FAILED: [500, 'SCRAPE_ACTION_ERROR'],
  // Firecrawl's code for a file it cannot read, with the 422 the native door answers
  UNSUPPORTED_CONTENT: [422, 'SCRAPE_UNSUPPORTED_FILE_ERROR'],
  DOCUMENT_UNREADABLE: [422, 'SCRAPE_UNSUPPORTED_FILE_ERROR'],
  // the native door's extract_rules only; the door has no such option
  EXTRACT_TOO_LARGE: [422, 'BAD_REQUEST'],
  TOO_MANY_CONCURRENT: [429, 'RATE_LIMIT_EXCEEDED'],
  MODEL_NOT_CONFIGURED: [400, 'BAD_REQUEST'],
  // Firecrawl answers its own model's failures as 500s.
  MODEL_FAILED: [500, 'LLM_ERROR'],
  MODEL_TIMED_OUT: [408, 'SCRAPE_TIMEOUT'],
  EXTRACT_NOT_FOUND: [404, 'NOT_FOUND'],
  CLIENT_CLOSED: [499, 'CLIENT_CLOSED'],
  FETCH_FAILED: [500, 'SCRAPE_SITE_ERROR'],
  BROWSER_FAILED: [500, 'SCRAPE_ENGINE_ERROR'],
  // What Firecrawl says when its every engine got the site's anti-bot page.
  TARGET_BLOCKED: [500, 'SCRAPE_SITE_ERROR'],
  // 503 as on the native door (429 is the account's own limit): a balancer retrying 503s
  // (nginx's proxy_next_upstream http_503) moves the call to another node.
  NODE_SATURATED: [503, 'SERVICE_UNAVAILABLE'],
  NOT_READY: [503, 'SERVICE_UNAVAILABLE'],
  TIMED_OUT: [408, 'SCRAPE_TIMEOUT'],
  INTERNAL: [500, 'UNKNOWN_ERROR'],
};

const httpCodes: Record<HttpErrorCode, [number, string, string?]> = {
  API_KEY_REQUIRED: [401, 'UNAUTHORIZED', 'Unauthorized'],
  INVALID_API_KEY: [401, 'UNAUTHORIZED', 'Unauthorized: Invalid token'],
  NOT_FOUND: [404, 'NOT_FOUND'],
  METHOD_NOT_ALLOWED: [405, 'METHOD_NOT_ALLOWED'],
  MALFORMED_URL: [400, 'BAD_REQUEST'],
  URL_TOO_LONG: [414, 'BAD_REQUEST'],
  INVALID_CONTENT_TYPE: [400, 'BAD_REQUEST'],
  INVALID_JSON_BODY: [400, 'BAD_REQUEST'],
  BODY_TOO_LARGE: [413, 'BAD_REQUEST'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'BAD_REQUEST'],
  INVALID_REQUEST: [400, 'BAD_REQUEST'],
  HEADERS_TOO_LARGE: [431, 'BAD_REQUEST'],
  UNPARSABLE_REQUEST: [400, 'BAD_REQUEST'],
  HOST_REQUIRED: [400, 'BAD_REQUEST'],
  EXPECTATION_FAILED: [417, 'BAD_REQUEST'],
};

/** The answer to any failure on the door; null: not ours to explain (a 500, logged). */
export function firecrawlAnswerOf(error: unknown, bodyLimit = 0): FirecrawlErrorAnswer | null {
  if (error instanceof FirecrawlBodyError) {
    return { status: 400, code: 'BAD_REQUEST', error: error.message, details: error.issues };
  }
  const appFailure = isAppError(error) ? error : asDatabaseUnavailable(error);
  if (appFailure) {
    const [status, code] = appCodes[appFailure.code];
    const { headers } = appFailure;
    return {
      status,
      code,
      error: appFailure.message,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  const http = isHttpError(error) ? error : fromFastifyError(error as FastifyError, bodyLimit);
  if (isHttpError(http)) {
    const [status, code, text] = httpCodes[http.code];
    return { status, code, error: text ?? http.message };
  }
  return null;
}

export function sendFirecrawlError(reply: FastifyReply, answer: FirecrawlErrorAnswer) {
  const { status, headers, ...body } = answer;
  for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ success: false, ...body });
}

/** The door's error handler: every failure in Firecrawl's envelope. */
export function firecrawlErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const answer = firecrawlAnswerOf(error, request.routeOptions.bodyLimit);
  if (answer) return sendFirecrawlError(reply, answer);
  request.log.error({ err: error }, 'internal error');
  return sendFirecrawlError(reply, {
    status: 500,
    code: 'UNKNOWN_ERROR',
    error: 'An unexpected error occurred.',
  });
}
