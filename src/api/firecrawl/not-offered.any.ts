/**
 * Firecrawl's endpoints this server does not offer (src/firecrawl/not-offered.ts): each
 * answers that it is not offered and what to use instead (not-offered-answer.ts), whatever its
 * body (a multipart upload to /v2/parse included), after the key is checked.
 */
import type { FastifyInstance } from 'fastify';
import { NOT_OFFERED, notOfferedMessage } from '../../firecrawl/not-offered.js';
import type { AppInstance } from '../app-instance.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_TAG } from './door.js';
import { sendNotOffered } from './not-offered-answer.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

/**
 * A body is read only for its `origin` (not-offered-answer.ts): JSON that does not parse, and
 * any other type (a multipart upload to /v2/parse), count as no body.
 */
function readOriginsOnly(scope: FastifyInstance) {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(null, undefined);
    }
  });
  scope.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });
}

export default defineRoute((app) => {
  app.register(async (scope) => {
    readOriginsOnly(scope);
    const door = scope as unknown as AppInstance;
    for (const endpoint of NOT_OFFERED) {
      const error = notOfferedMessage(endpoint);
      for (const url of endpoint.paths) {
        door.route({
          method: [...endpoint.methods],
          url,
          onRequest: door.authenticate,
          schema: {
            summary: `Not offered: Firecrawl's ${endpoint.feature}`,
            tags: [FIRECRAWL_TAG],
            security: [{ bearer: [] }],
            response: { 401: FirecrawlErrorBody, 404: FirecrawlErrorBody },
          },
          handler: (request, reply) => {
            sendNotOffered(request, reply, error);
          },
        });
      }
    }
  });
});
