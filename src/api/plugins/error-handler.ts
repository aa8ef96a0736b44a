/**
 * One handler turns every failure into `{"error": "..."}` JSON with the documented status:
 * AppErrors from the catalog, Fastify's own errors (bad JSON, oversize or wrong-type bodies,
 * schema validation), unknown routes and wrong methods. Anything else is a 500 whose details
 * go only to the log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, appError, isAppError } from '../../errors.js';

interface Answer {
  status: number;
  message: string;
}

function answerOf(error: AppError): Answer {
  return { status: error.status, message: error.message };
}

function fromFastifyError(error: FastifyError): Answer | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return answerOf(appError('INVALID_JSON_BODY', error.message));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return answerOf(appError('BODY_TOO_LARGE', 1024 * 1024));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return answerOf(appError('UNSUPPORTED_MEDIA_TYPE'));
    case 'FST_ERR_CTP_INVALID_TYPE':
      return answerOf(appError('BAD_REQUEST', 'Invalid Content-Type header'));
  }
  if (error.validation) {
    const first = error.validation[0];
    const where = error.validationContext ?? 'request';
    const path = first?.instancePath
      ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
      : '';
    const field = path || (first?.params as { missingProperty?: string })?.missingProperty || where;
    return { status: 400, message: `Invalid ${where}: ${field} ${first?.message ?? 'is invalid'}` };
  }
  // Fastify's other 4xx (bad URL encoding, proto poisoning...) keep their status.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: error.message };
  return null;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ error: error.message });
}

export function registerErrorHandling(app: FastifyInstance, knownRoutes: RouteTable): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error)) return sendError(reply, error);
    const mapped = fromFastifyError(error);
    if (mapped) {
      return reply
        .code(mapped.status)
        .type('application/json; charset=utf-8')
        .send({ error: mapped.message });
    }
    request.log.error({ err: error }, 'internal error');
    return sendError(reply, appError('INTERNAL'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = knownRoutes.methodsFor(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, appError('METHOD_NOT_ALLOWED', request.method));
    }
    return sendError(reply, appError('NOT_FOUND'));
  });
}

/**
 * Remembers every route's pattern so that a path known under another method answers 405
 * instead of 404.
 */
export class RouteTable {
  private readonly routes: { pattern: RegExp; method: string }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .replace(/\/+$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    for (const method of [methods].flat()) this.routes.push({ pattern, method });
  }

  methodsFor(path: string): string[] {
    const found = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) found.add(route.method);
    return [...found];
  }
}
