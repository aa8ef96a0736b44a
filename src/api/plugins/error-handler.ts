/**
 * One handler turns every failure into `{"error": "..."}` JSON with the documented status:
 * the service's errors (src/errors.ts), HTTP's own (../http-errors.ts, Fastify's body and
 * validation errors included), unknown routes and wrong methods. Anything else is a 500 whose
 * details go only to the log. It answers; it decides no texts.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError, isAppError } from '../../errors.js';
import { asDatabaseUnavailable } from '../../store/database-errors.js';
import { type ErrorAnswer, fromFastifyError, httpError, isHttpError } from '../http-errors.js';

export function sendError(reply: FastifyReply, error: ErrorAnswer): FastifyReply {
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ error: error.message });
}

/** Another door's answer to an unknown route or method under its path prefix. */
export interface DoorErrors {
  prefix: string;
  send(reply: FastifyReply, error: ErrorAnswer & { code: string }): FastifyReply;
}

export function registerErrorHandling(
  app: FastifyInstance,
  knownRoutes: RouteTable,
  doors: readonly DoorErrors[] = [],
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error) || isHttpError(error)) return sendError(reply, error);
    const mapped = fromFastifyError(error, request.routeOptions.bodyLimit);
    if (mapped) return sendError(reply, mapped);
    const unavailable = asDatabaseUnavailable(error);
    if (unavailable) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendError(reply, unavailable);
    }
    request.log.error({ err: error }, 'internal error');
    return sendError(reply, appError('INTERNAL'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const send = doors.find((door) => path.startsWith(door.prefix))?.send ?? sendError;
    const allowed = knownRoutes.methodsFor(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('Allow', allowed.join(', '));
      return send(reply, httpError('METHOD_NOT_ALLOWED', request.method));
    }
    return send(reply, httpError('NOT_FOUND'));
  });
}

/**
 * The same answer written straight to a socket and closed, for requests that never become a
 * Fastify request (refused by Node's HTTP parser, CONNECT).
 */
export function writeSocketError(socket: Socket, error: ErrorAnswer): void {
  const body = JSON.stringify({ error: error.message });
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/** The same answer on a response Node hands out before Fastify (an unsupported Expect). */
export function writeResponseError(response: ServerResponse, error: ErrorAnswer, id: string) {
  const body = JSON.stringify({ error: error.message });
  response.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': id,
    Connection: 'close',
  });
  response.end(body);
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
