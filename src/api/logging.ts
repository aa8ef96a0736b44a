/**
 * Request logging: one line per request at completion, with the API key redacted from the
 * URL and headers. A key must never reach a log line (contract 1.6); a test reads the log.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

const API_KEY_IN_QUERY = /([?&](?:api_key|apiKey)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(API_KEY_IN_QUERY, '$1[REDACTED]');
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
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  };
}

export class RequestLogController extends LogController {
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
  }
}
