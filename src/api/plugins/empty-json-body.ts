/**
 * An empty body sent with `Content-Type: application/json` (common for DELETE and POST
 * from HTTP libraries) counts as no body: archive/unarchive take none, and create/edit
 * then answer with their own texts (`Name is required!`...). Other bodies keep Fastify's
 * parser, prototype-poisoning guard included.
 */
import type { FastifyInstance } from 'fastify';
import type { AppInstance } from '../app-instance.js';
import type { Route } from '../route.js';

function acceptEmptyJson(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, String(body), done);
  });
}

/** The routes in one child context, so the parser above applies to them only. */
export function withEmptyJsonBody(routes: readonly Route[]): Route {
  return {
    register(app, services) {
      app.register(async (scope) => {
        acceptEmptyJson(scope);
        // The child context carries the parent's decorations and type provider.
        const child = scope as unknown as AppInstance;
        for (const route of routes) route.register(child, services);
      });
    },
  };
}
