/**
 * GET /v2/crawl/{id} and GET /v1/crawl/{id}: a crawl's status, counters (`completed` pages
 * ended of `total` discovered) and a page of its results, with `next` while results are left;
 * answered as a batch's (a crawl is a batch whose page list grows). An id may also be a batch
 * scrape's: Firecrawl keeps batches as crawls and its v1 SDK's batchScrapeUrls polls here.
 */
import { defineRoute } from '../route.js';
import { crawlUrl, FIRECRAWL_VERSIONS } from './batch-answers.js';
import { batchStatusHandler, batchStatusSchema } from './batch-status.get.js';

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.get(
      `/${version}/crawl/:id`,
      {
        onRequest: app.authenticate,
        schema: {
          ...batchStatusSchema(version, `firecrawlCrawlStatus${version.toUpperCase()}`),
          summary: `A crawl's (or a batch scrape's) status and results (Firecrawl ${version})`,
        },
      },
      batchStatusHandler(version, services, crawlUrl),
    );
  }
});
