/**
 * GET /v2/crawl/{id} and GET /v1/crawl/{id}: a crawl's status, counters (`completed` pages
 * ended of `total` discovered) and a page of its results, with `next` while results are left;
 * answered as a batch's (a crawl is a batch whose page list grows). An id may also be a batch
 * scrape's: Firecrawl keeps batches as crawls and its v1 SDK's batchScrapeUrls polls here.
 * A WebSocket upgrade here is the crawl's watch (job-watch.ts).
 */
import { defineRoute } from '../route.js';
import { crawlUrl, FIRECRAWL_VERSIONS } from './batch-answers.js';
import { batchStatusHandler, batchStatusSchema } from './batch-status.get.js';
import { authenticateUnlessWatch, jobWatchHandler } from './job-watch.js';

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.route({
      method: 'GET',
      url: `/${version}/crawl/:id`,
      onRequest: authenticateUnlessWatch(app.authenticate),
      schema: {
        ...batchStatusSchema(version, `firecrawlCrawlStatus${version.toUpperCase()}`),
        summary: `A crawl's (or a batch scrape's) status and results (Firecrawl ${version})`,
      },
      handler: batchStatusHandler(version, services, crawlUrl),
      // The SDKs' crawl watchers upgrade here (job-watch.ts).
      wsHandler: jobWatchHandler(version, services),
    });
  }
});
