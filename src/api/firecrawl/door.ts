/**
 * The Firecrawl-compatible door: its routes (one file each, listed in routes.ts of this
 * folder) in a scope of their own, so that its failures answer in Firecrawl's envelope and its
 * bodies are validated the way Firecrawl validates them, while the native API keeps its own.
 * Paths are Firecrawl's (/v1/..., /v2/...); auth is the native one, which also reads
 * `Authorization: Bearer <key>`. Every route authenticates at onRequest, before its body is
 * read or validated: a bad key gets its 401 whatever the body, and a stranger learns nothing
 * of the door's schemas. A crawl's or batch's status path also takes a WebSocket upgrade: its
 * watch (job-watch.ts).
 */
import fastifyWebsocket from '@fastify/websocket';
import type { AppInstance } from '../app-instance.js';
import type { DoorErrors } from '../plugins/error-handler.js';
import { defineRoute, type Route } from '../route.js';
import type { ApiServices } from '../services.js';
import { firecrawlValidatorCompiler } from './body-validator.js';
import {
  firecrawlAnswerOf,
  firecrawlErrorHandler,
  sendFirecrawlError,
} from './firecrawl-errors.js';

/** The OpenAPI tag of every route of this door. */
export const FIRECRAWL_TAG = 'firecrawl';

/**
 * Unknown routes and wrong methods under /v1 and /v2 answer in Firecrawl's envelope too; an
 * unknown route says where the door's endpoints are listed (an agent reads the text).
 */
export const firecrawlDoorErrors: readonly DoorErrors[] = ['/v1/', '/v2/'].map((prefix) => ({
  prefix,
  send: (reply, error) => {
    const answer = firecrawlAnswerOf(error) ?? { status: 500, error: error.message };
    if (error.code !== 'NOT_FOUND') return sendFirecrawlError(reply, answer);
    const { method, url } = reply.request;
    return sendFirecrawlError(reply, {
      ...answer,
      error: `This self-hosted server (pagegrab) has no Firecrawl endpoint ${method} ${url.split('?')[0]}. The endpoints it offers are listed at /docs (tag firecrawl).`,
    });
  },
}));

export function firecrawlDoor(routes: readonly Route[]): Route {
  return defineRoute((app, services: ApiServices) => {
    app.register(async (scope) => {
      const door = scope as unknown as AppInstance;
      door.setErrorHandler(firecrawlErrorHandler);
      door.setValidatorCompiler(firecrawlValidatorCompiler);
      // In the door's scope only: its hooks and handler wrapper stay off the native routes.
      // A watcher sends nothing but its handshake, so its frames are kept small.
      await door.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
      for (const route of routes) route.register(door, services);
    });
  });
}
