/**
 * POST /v2/batch/scrape and POST /v1/batch/scrape: many pages with one set of scrape options.
 * The batch is stored with its pages and runs as durable jobs (jobs/batches/): it survives a
 * restart and is shared by the nodes of one PostgreSQL. Each page is reserved and settled on
 * its own, like a single scrape. Answers at once with the batch's id and status URL.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';
import type { FirecrawlScrapeOptions, FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import type { WebhookInput } from '../../jobs/batches/batch-events.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { baseUrlOf } from './base-url.js';
import { batchUrl } from './batch-answers.js';
import { BatchBodyV1, BatchBodyV2, BatchStarted } from './batch-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

type Body = FirecrawlScrapeOptions & {
  urls: string[];
  webhook?: WebhookInput;
  maxConcurrency?: number;
  ignoreInvalidURLs?: boolean;
  appendToId?: string;
};

/** A body of 1000 long URLs and its options; the default 1 MiB would refuse it. */
const BODY_LIMIT = 4 * 1024 * 1024;

function startHandler(version: FirecrawlVersion, services: ApiServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const account = accountOf(request);
    const { urls, webhook, maxConcurrency, ignoreInvalidURLs, appendToId, ...options } =
      request.body as Body;
    if (appendToId !== undefined) {
      throw appError('BAD_REQUEST', 'appendToId is not offered by this server: start a new batch');
    }
    const baseUrl = baseUrlOf(request, services.firecrawl.publicUrl);
    const started = await services.batches.start({
      account,
      version,
      urls,
      options,
      ...(webhook === undefined ? {} : { webhook }),
      ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
      ...(ignoreInvalidURLs === undefined ? {} : { ignoreInvalidURLs }),
      baseUrl,
    });
    return reply.send({
      success: true,
      id: started.id,
      url: batchUrl(baseUrl, version, started.id),
      ...(started.invalidURLs ? { invalidURLs: started.invalidURLs } : {}),
    });
  };
}

const errors = Object.fromEntries(
  [400, 401, 402, 403, 413].map((status) => [status, FirecrawlErrorBody]),
);

export default defineRoute((app, services) => {
  for (const [version, body] of [
    ['v2', BatchBodyV2],
    ['v1', BatchBodyV1],
  ] as const) {
    app.post(
      `/${version}/batch/scrape`,
      {
        onRequest: app.authenticate,
        bodyLimit: BODY_LIMIT,
        schema: {
          operationId: `firecrawlBatchScrape${version.toUpperCase()}`,
          summary: `Start a batch scrape (Firecrawl ${version})`,
          description:
            'Scrapes every URL with the same options, as durable jobs; each page is charged on its own like a single scrape, and a page refused for credits (402) fails the batch. Results are kept until expiresAt (BATCH_RETENTION_MS).',
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          body,
          response: { 200: BatchStarted, ...errors },
        },
      },
      startHandler(version, services),
    );
  }
});
