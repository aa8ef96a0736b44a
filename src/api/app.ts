/**
 * buildApp(deps): the HTTP face of the service. It owns no resources and builds no parts:
 * the composition root (main.ts) builds them and hands them in as `services`, so tests build
 * isolated apps with their own temp database.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fastifySwagger from '@fastify/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.js';
import { appError } from '../errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../scrape/params/json-depth.js';
import { newId } from '../store/ids.js';
import { type AppInstance, createAppInstance } from './app-instance.js';
import { registerDashboard } from './dashboard/dashboard-files.js';
import { firecrawlDoorErrors } from './firecrawl/door.js';
import { httpError } from './http-errors.js';
import { createAuthenticate } from './plugins/auth.js';
import {
  RouteTable,
  registerErrorHandling,
  writeResponseError,
  writeSocketError,
} from './plugins/error-handler.js';
import { routes } from './routes.js';
import type { ApiServices } from './services.js';

export type { AppInstance };

export interface AppDeps {
  config: Pick<Config, 'logLevel' | 'dashboardDir'>;
  services: ApiServices;
  /** Where log lines go (tests capture them). Default: stdout. */
  logStream?: DestinationStream;
}

export async function buildApp(deps: AppDeps): Promise<AppInstance> {
  const { config, services } = deps;
  const { metrics } = services;
  const app = createAppInstance({
    logLevel: config.logLevel,
    ...(deps.logStream ? { logStream: deps.logStream } : {}),
    // Counted where the request log line is written, not in an onResponse hook: a hook is
    // one more runner and closure per request.
    completed: (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const { method } = request;
      metrics.httpRequests.inc({ method, route, status: String(reply.statusCode) });
      metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
    },
  }) as AppInstance;
  // Node hands CONNECT to a 'connect' listener and, with none, drops the socket unanswered.
  // It hands it over with no 'error' listener: a client's reset would end the process.
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    writeSocketError(socket, httpError('METHOD_NOT_ALLOWED', 'CONNECT'));
  });
  // Node answers any other Expect with an empty 417 of its own unless someone listens.
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    writeResponseError(response, httpError('EXPECTATION_FAILED'), newId());
  });
  const knownRoutes = new RouteTable();
  app.addHook('onRoute', (route) => {
    knownRoutes.add(route.url, route.method);
    // Fastify never parses a GET's or a HEAD's body: only routes that take one run the check,
    // first of their preValidation hooks (as an app-wide hook would).
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    const own = route.preValidation;
    route.preValidation = [checkJsonDepth, ...(own ? (Array.isArray(own) ? own : [own]) : [])];
  });
  app.decorateRequest('account', null);
  app.decorate('authenticate', createAuthenticate(services.keys));

  // Callback hooks, not async ones: on the hot path each promise costs, more so once
  // Playwright's AsyncLocalStorage has switched on Node 20's promise hooks.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // Node's own check (off in app-instance.ts) answers an empty, non-JSON 400.
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    const http11 = httpVersionMajor === 1 && httpVersionMinor >= 1;
    if (http11 && request.headers.host === undefined) return done(httpError('HOST_REQUIRED'));
    done();
  });
  // During a drain, a keep-alive connection would hold the server open for Fastify's 72 s
  // keep-alive timeout (past the grace period); `Connection: close` ends it with its answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (services.readiness.draining()) reply.header('Connection', 'close');
    done(null, payload);
  });
  registerErrorHandling(app, knownRoutes, firecrawlDoorErrors);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pagegrab',
        version: '1.0.0',
        description:
          'Self-hosted page scraping: HTML, Markdown or PNG, with saved workflows. ' +
          'Authenticate with the `api_key` query parameter, the `X-API-Key` header or ' +
          '`Authorization: Bearer <key>`. The `firecrawl` tag is a Firecrawl-compatible API ' +
          '(/v1, /v2) for the tools that speak it.',
      },
      components: {
        securitySchemes: {
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The API key (the Firecrawl door)',
          },
        },
      },
      security: [{ apiKeyQuery: [] }, { apiKeyHeader: [] }, { bearer: [] }],
    },
  });

  for (const route of routes) route.register(app, services);
  await registerDashboard(app, config.dashboardDir);
  return app;
}

/** Before any validator or handler walks the body (scrape/params/json-depth.ts). */
function checkJsonDepth(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  done(
    nestsDeeperThan(request.body, MAX_JSON_DEPTH)
      ? appError('JSON_TOO_DEEP', MAX_JSON_DEPTH)
      : undefined,
  );
}
