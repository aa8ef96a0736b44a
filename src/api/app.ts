/**
 * buildApp(deps): the HTTP face of the service. It owns no resources: the composition root
 * (main.ts) builds the store, engines and queue and passes them in, so tests build isolated
 * apps with their own temp database.
 */
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.js';
import { appError } from '../errors.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import { RequestLogController, redactPaths, serializeRequest } from './logging.js';
import type { Metrics } from './metrics.js';
import { registerAccountRoute } from './native/account.get.js';
import { registerHealthRoutes } from './operations/health.js';
import { createAuthenticate } from './plugins/auth.js';
import { RouteTable, registerErrorHandling, sendError } from './plugins/error-handler.js';

export interface Readiness {
  /** The browser pool's state for /readyz. */
  browser?: () => unknown;
  /** True once SIGTERM started a drain: the load balancer should stop sending traffic. */
  draining?: () => boolean;
}

/** A later part of the service adds its routes through this hook (scraper, workflows...). */
export type RouteRegistrar = (app: AppInstance, deps: AppDeps) => void;

export interface AppDeps {
  config: Config;
  store: Store;
  metrics: Metrics;
  readiness?: Readiness;
  routes?: RouteRegistrar[];
  /** Where log lines go (tests capture them). Default: stdout. */
  logStream?: DestinationStream;
}

/** JSON bodies (workflow endpoints) are small: 1 MiB is generous. */
const BODY_LIMIT = 1024 * 1024;

function createFastify(deps: AppDeps) {
  return Fastify({
    logger: {
      level: deps.config.logLevel,
      redact: { paths: redactPaths, censor: '[REDACTED]' },
      serializers: { req: serializeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    logController: new RequestLogController(),
    // The scrape's request id (a UUIDv7, like every id here): the X-Request-Id a caller
    // sees is the requestId of its webhook answer, delivery and run record.
    genReqId: () => newId(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Bad percent-encoding never reaches the error handler; Fastify's default answer echoes
    // the whole URL, API key included. These skip onRequest, so the request id is set here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('X-Request-Id', request.id);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return sendError(
        reply,
        tooLong ? appError('URL_TOO_LONG') : appError('BAD_REQUEST', 'Malformed URL'),
      );
    },
    // Malformed requests the HTTP parser rejects still get the `{"error"}` shape.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (!socket.writable) return socket.destroy();
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : 400;
      const body = JSON.stringify({
        error: tooLarge ? 'Request header fields too large' : 'Bad request',
      });
      socket.end(
        `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

export type AppInstance = ReturnType<typeof createFastify> & {
  authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

const DASHBOARD_CSP = [
  "default-src 'self'",
  "img-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function buildApp(deps: AppDeps): Promise<AppInstance> {
  const app = createFastify(deps) as AppInstance;
  // Node hands CONNECT to a 'connect' listener and, with none, drops the socket unanswered.
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    const body = JSON.stringify({ error: 'Method CONNECT is not allowed on this route' });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const routes = new RouteTable();
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));
  app.decorateRequest('account', null);
  app.decorate('authenticate', createAuthenticate(deps.store));

  // Callback hooks, not async ones: on the hot path each promise costs, more so once
  // Playwright's AsyncLocalStorage has switched on Node 20's promise hooks.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  // During a drain, a keep-alive connection would hold the server open for Fastify's 72 s
  // keep-alive timeout (past the grace period); `Connection: close` ends it with its answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (deps.readiness?.draining?.()) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({
      method: request.method,
      route,
      status: String(reply.statusCode),
    });
    deps.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
  registerErrorHandling(app, routes);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pagegrab',
        version: '1.0.0',
        description:
          'Self-hosted page scraping: HTML, Markdown or PNG, with saved workflows. ' +
          'Authenticate with the `api_key` query parameter or the `X-API-Key` header.',
      },
      components: {
        securitySchemes: {
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ apiKeyQuery: [] }, { apiKeyHeader: [] }],
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  registerHealthRoutes(app, deps);
  registerAccountRoute(app);
  for (const register of deps.routes ?? []) register(app, deps);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (existsSync(deps.config.dashboardDir)) {
    await app.register(fastifyStatic, {
      root: deps.config.dashboardDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // The browser itself holds the dashboard to its own origin: no script, style or
      // request elsewhere, screenshots only as blob: URLs, never framed by another site.
      setHeaders: (reply) => reply.header('Content-Security-Policy', DASHBOARD_CSP),
    });
  }
  return app;
}
