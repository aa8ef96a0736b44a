/**
 * GET /v2/extract/{id} and GET /v1/extract/{id}: an extract's state; once completed, the
 * model's answer in `data` (and with `showSources`, the pages it read); once failed, why.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExtractRequest } from '../../jobs/extracts/extract-request.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_VERSIONS } from './batch-answers.js';
import { FIRECRAWL_TAG } from './door.js';
import { ExtractIdParams, ExtractStatusAnswer } from './extract-schemas.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.get(
      `/${version}/extract/:id`,
      {
        onRequest: app.authenticate,
        schema: {
          operationId: `firecrawlExtractStatus${version.toUpperCase()}`,
          summary: `An extract's state and answer (Firecrawl ${version})`,
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          params: ExtractIdParams,
          response: { 200: ExtractStatusAnswer, 401: FirecrawlErrorBody, 404: FirecrawlErrorBody },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const { id } = request.params as { id: string };
        const row = await services.extracts.status(accountOf(request).id, id);
        const showSources = (row.request as ExtractRequest).showSources && row.sources;
        return reply.send({
          success: true,
          status: row.status,
          ...(row.status === 'completed' ? { data: row.data } : {}),
          ...(row.error ? { error: row.error } : {}),
          expiresAt: new Date(row.expiresAt).toISOString(),
          creditsUsed: row.creditsUsed,
          ...(showSources ? { sources: { pages: row.sources } } : {}),
        });
      },
    );
  }
});
