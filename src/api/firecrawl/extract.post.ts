/**
 * POST /v2/extract and POST /v1/extract: starts an extract (jobs/extracts/): its id at once,
 * the answer by polling GET .../extract/{id}. Without a model configured, a 400 naming the
 * settings to add, before anything is stored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExtractBody as Body } from '../../jobs/extracts/extract-request.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_VERSIONS } from './batch-answers.js';
import { FIRECRAWL_TAG } from './door.js';
import { ExtractBody, ExtractStarted } from './extract-schemas.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.post(
      `/${version}/extract`,
      {
        onRequest: app.authenticate,
        schema: {
          operationId: `firecrawlExtract${version.toUpperCase()}`,
          summary: `Start an extract: the model's answer over pages (Firecrawl ${version})`,
          description:
            "Each URL is scraped (a `/*` URL: the site, up to EXTRACT_MAX_PAGES), then the operator's model answers the prompt and/or schema over their Markdown; poll GET /extract/{id}.",
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          body: ExtractBody,
          response: { 200: ExtractStarted, 400: FirecrawlErrorBody, 401: FirecrawlErrorBody },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const account = accountOf(request);
        const { id, invalidURLs } = await services.extracts.start(
          account,
          request.body as Body,
          version,
        );
        return reply.send(
          version === 'v1'
            ? { success: true, id, urlTrace: [] }
            : { success: true, id, ...(invalidURLs.length > 0 ? { invalidURLs } : {}) },
        );
      },
    );
  }
});
