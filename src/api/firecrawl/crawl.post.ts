/**
 * POST /v2/crawl and POST /v1/crawl: a whole site from its start page. The crawl is stored
 * with its first pages (the start URL, and its sitemaps' entries unless `sitemap: skip`) and
 * runs as durable jobs (jobs/crawls/): it survives a restart, is shared by the nodes of one
 * PostgreSQL, obeys robots.txt and per-host limits, and charges each page like a scrape.
 * Answers at once with the crawl's id and status URL.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';
import type { FirecrawlScrapeOptions, FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import type { WebhookInput } from '../../jobs/batches/batch-events.js';
import type { CrawlBody } from '../../jobs/crawls/crawl-options.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { baseUrlOf } from './base-url.js';
import { crawlUrl } from './batch-answers.js';
import { CrawlBodyV1, CrawlBodyV2, CrawlStarted } from './crawl-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

type Body = CrawlBody & {
  url: string;
  scrapeOptions?: FirecrawlScrapeOptions;
  webhook?: WebhookInput;
  prompt?: string | null;
  robotsUserAgent?: string | null;
  deduplicateSimilarURLs?: boolean;
  zeroDataRetention?: boolean;
  integration?: string;
  origin?: string;
};

function startHandler(version: FirecrawlVersion, services: ApiServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const account = accountOf(request);
    const {
      url,
      scrapeOptions,
      webhook,
      prompt,
      robotsUserAgent,
      deduplicateSimilarURLs: _dedupe,
      zeroDataRetention: _zdr,
      integration: _integration,
      origin: _origin,
      ...crawl
    } = request.body as Body;
    if (prompt) {
      throw appError(
        'BAD_REQUEST',
        'prompt needs a language model, which this server does not offer; send the crawl options instead',
      );
    }
    if (robotsUserAgent) {
      throw appError(
        'BAD_REQUEST',
        'robotsUserAgent is not offered by this server: robots.txt is read for the user agent pagegrab',
      );
    }
    const baseUrl = baseUrlOf(request, services.firecrawl.publicUrl);
    const started = await services.crawls.start({
      account,
      version,
      url,
      crawl,
      scrapeOptions: scrapeOptions ?? {},
      ...(webhook === undefined ? {} : { webhook }),
      baseUrl,
    });
    return reply.send({
      success: true,
      id: started.id,
      url: crawlUrl(baseUrl, version, started.id),
    });
  };
}

const errors = Object.fromEntries(
  [400, 401, 402, 403].map((status) => [status, FirecrawlErrorBody]),
);

export default defineRoute((app, services) => {
  for (const [version, body] of [
    ['v2', CrawlBodyV2],
    ['v1', CrawlBodyV1],
  ] as const) {
    app.post(
      `/${version}/crawl`,
      {
        onRequest: app.authenticate,
        schema: {
          operationId: `firecrawlCrawl${version.toUpperCase()}`,
          summary: `Start a crawl (Firecrawl ${version})`,
          description:
            'Crawls a site from its start page as durable jobs: links and sitemap entries join a frontier stored in the database (each normalised URL once), robots.txt is obeyed for the user agent pagegrab, each host gets at most CRAWL_HOST_CONCURRENCY pages at once (all crawls and nodes) and slows down on 429/503; each page is charged like a single scrape, and a page refused for credits (402) fails the crawl. Results are kept until expiresAt (BATCH_RETENTION_MS).',
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          body,
          response: { 200: CrawlStarted, ...errors },
        },
      },
      startHandler(version, services),
    );
  }
});
