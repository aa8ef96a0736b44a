/**
 * GET /v2/screenshots/{id}: a screenshot the door linked to. The id (128 random bits) is the
 * only key, as with Firecrawl's storage links, so the link works in any tool without the API
 * key; it answers until SCREENSHOT_RETENTION_MS has passed.
 */
import { Type } from '@sinclair/typebox';
import { httpError } from '../http-errors.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

export default defineRoute((app, { firecrawl }) => {
  app.get(
    '/v2/screenshots/:id',
    {
      schema: {
        operationId: 'firecrawlScreenshot',
        summary: 'A screenshot linked from a scrape result (kept for SCREENSHOT_RETENTION_MS)',
        tags: [FIRECRAWL_TAG],
        security: [],
        params: Type.Object({ id: Type.String() }),
        response: {
          200: {
            description: 'The image',
            content: {
              'image/png': { schema: { type: 'string', format: 'binary' } },
              'image/jpeg': { schema: { type: 'string', format: 'binary' } },
            },
          },
          404: FirecrawlErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const file = /^[A-Za-z0-9_-]{22}$/.test(id) ? await firecrawl.screenshot(id) : null;
      if (!file) throw httpError('NOT_FOUND');
      reply.header('Cache-Control', 'private, max-age=3600');
      return reply.type(file.contentType).send(file.body as unknown as string);
    },
  );
});
