/**
 * Request logging: one line per request at completion, with the API key redacted from the
 * URL and headers. A key must never reach a log line (contract 1.6); a test reads the log.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

const API_KEY_IN_QUERY = /([?&](?:api_key|apiKey)=)[^&#]*/gi;
/**
 * Keys also travel inside other parameters (`config={"api_key":...}`, a target URL that
 * carries one): our keys have a recognisable prefix, so any occurrence is cut.
 */
const OUR_KEY_ANYWHERE = /pgk_[A-Za-z0-9_-]+/g;

const MENTIONS_A_KEY = /pgk_|api_?key=/i;

/** Whether `url` may carry a key: the common case (no key in the URL) costs one regex test. */
function mayCarryKey(url: string, keys: readonly string[]): boolean {
  if (MENTIONS_A_KEY.test(url)) return true;
  return keys.some(
    (key) =>
      key.length >= 8 &&
      (url.includes(key.slice(0, 8)) || url.includes(encodeURIComponent(key).slice(0, 8))),
  );
}

export function redactUrl(url: string, keys: readonly string[] = []): string {
  if (!mayCarryKey(url, keys)) return url;
  let out = url
    .replace(API_KEY_IN_QUERY, '$1[REDACTED]')
    .replace(OUR_KEY_ANYWHERE, 'pgk_[REDACTED]');
  // A key of any other shape the caller sent is cut wherever else it appears, encoded or not.
  for (const key of keys) {
    if (key.length < 8) continue;
    for (const form of new Set([key, encodeURIComponent(key)]))
      out = out.split(form).join('[REDACTED]');
  }
  return out;
}

function pushStrings(found: string[], value: unknown): void {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) for (const item of value) pushStrings(found, item);
}

function keysOf(request: FastifyRequest): string[] {
  const found: string[] = [];
  // Pino also calls the serializer with objects that only look like a request.
  pushStrings(found, request.headers?.['x-api-key']);
  pushStrings(found, (request.query as Record<string, unknown> | undefined)?.api_key);
  return found;
}

export const redactPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'apiKey',
  'api_key',
];

export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url, keysOf(request)),
    remoteAddress: request.ip,
  };
}

export class RequestLogController extends LogController {
  constructor(private readonly completed?: (request: FastifyRequest, reply: FastifyReply) => void) {
    super();
  }

  override incomingRequest(): void {
    // One line per request is enough; the completion line carries everything.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      req: serializeRequest(request),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
    this.completed?.(request, reply);
  }
}
