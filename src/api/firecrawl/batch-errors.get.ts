/**
 * GET /v2/batch/scrape/{id}/errors and GET /v1/batch/scrape/{id}/errors: the batch's failed
 * pages (id, when, URL, Firecrawl's code, the text). The v1 SDK asks with DELETE
 * (checkBatchScrapeErrors), so v1 answers that method here too.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { FIRECRAWL_VERSIONS, firecrawlCodeOf, sendJobNotFound } from './batch-answers.js';
import { BatchErrorsAnswer, BatchIdParams } from './batch-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

function errorsHandler({ batches }: ApiServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const errors = await batches.errors(accountOf(request).id, id);
    if (!errors) return sendJobNotFound(reply);
    return reply.send({
      errors: errors.map(({ code, ...error }) => ({
        ...error,
        ...(code ? { code: firecrawlCodeOf(code) } : {}),
      })),
      robotsBlocked: [],
    });
  };
}

const schemaOf = (version: string, operationId: string) => ({
  operationId,
  summary: `A batch scrape's failed pages (Firecrawl ${version})`,
  tags: [FIRECRAWL_TAG],
  security: [{ bearer: [] }],
  params: BatchIdParams,
  response: { 200: BatchErrorsAnswer, 401: FirecrawlErrorBody, 404: FirecrawlErrorBody },
});

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.get(
      `/${version}/batch/scrape/:id/errors`,
      {
        onRequest: app.authenticate,
        schema: schemaOf(version, `firecrawlBatchErrors${version.toUpperCase()}`),
      },
      errorsHandler(services),
    );
  }
  app.delete(
    '/v1/batch/scrape/:id/errors',
    {
      onRequest: app.authenticate,
      schema: {
        ...schemaOf('v1', 'firecrawlBatchErrorsByDeleteV1'),
        summary: "A batch scrape's failed pages, as the v1 SDK asks for them (DELETE)",
      },
    },
    errorsHandler(services),
  );
});
