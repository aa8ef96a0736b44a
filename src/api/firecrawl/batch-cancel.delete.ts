/**
 * DELETE /v2/batch/scrape/{id} and DELETE /v1/batch/scrape/{id}: cancels a running batch.
 * Pages not started are never scraped nor charged; pages already running finish and are
 * charged as usual. A batch that had ended keeps its status (answered as it is).
 */
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_VERSIONS, sendJobNotFound } from './batch-answers.js';
import { BatchCancelled, BatchIdParams } from './batch-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

export default defineRoute((app, { batches }) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.delete(
      `/${version}/batch/scrape/:id`,
      {
        onRequest: app.authenticate,
        schema: {
          operationId: `firecrawlBatchCancel${version.toUpperCase()}`,
          summary: `Cancel a batch scrape (Firecrawl ${version})`,
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          params: BatchIdParams,
          response: { 200: BatchCancelled, 401: FirecrawlErrorBody, 404: FirecrawlErrorBody },
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        const status = await batches.cancel(accountOf(request).id, id);
        if (!status) return sendJobNotFound(reply);
        return reply.send({ success: true, status });
      },
    );
  }
});
