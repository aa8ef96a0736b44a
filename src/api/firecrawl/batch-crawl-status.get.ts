/**
 * GET /v1/crawl/{id} for a batch: Firecrawl keeps batch scrapes as crawls, and its v1 SDK's
 * batchScrapeUrls polls the crawl status path with the batch's id. This server has no
 * crawls, so the path answers batches only (the same answer as /v1/batch/scrape/{id}).
 */
import { defineRoute } from '../route.js';
import { batchStatusHandler, batchStatusSchema } from './batch-status.get.js';

export default defineRoute((app, services) => {
  app.get(
    '/v1/crawl/:id',
    {
      preHandler: app.authenticate,
      schema: {
        ...batchStatusSchema('v1', 'firecrawlBatchStatusAsCrawlV1'),
        summary: "A batch scrape's status at the crawl path the v1 SDK polls (Firecrawl v1)",
      },
    },
    batchStatusHandler('v1', services),
  );
});
