/**
 * GET /api/crawls: the caller's crawls (started on the Firecrawl door, /v1|v2/crawl), newest
 * first, with their progress, until their results expire: the dashboard's crawls page reads
 * it. Each crawl's results and cancel are the door's (/v2/crawl/{id}).
 */
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';

/** Crawls listed at most. */
const MAX_LISTED = 100;

const CrawlSummary = Type.Object({
  id: Type.String(),
  url: Type.String(),
  status: Type.String({ description: 'scraping, completed, failed or cancelled' }),
  completed: Type.Integer({ description: 'Pages ended (scraped or failed)' }),
  total: Type.Integer({ description: 'Pages discovered' }),
  creditsUsed: Type.Number(),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export default defineRoute((app, { crawls }) => {
  app.get(
    '/api/crawls',
    {
      preHandler: app.authenticate,
      schema: {
        operationId: 'listCrawls',
        summary: `The caller's crawls, newest first (at most ${MAX_LISTED})`,
        tags: ['crawls'],
        querystring: Type.Object({ api_key: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(CrawlSummary), ...errorResponses(403) },
      },
    },
    async (request) => {
      const list = await crawls.list(accountOf(request).id, MAX_LISTED);
      return list.map((crawl) => ({
        ...crawl,
        createdAt: new Date(crawl.createdAt).toISOString(),
        expiresAt: new Date(crawl.expiresAt).toISOString(),
      }));
    },
  );
});
