/**
 * GET /v2/batch/scrape/{id} and GET /v1/batch/scrape/{id}: the batch's status, counters and
 * a page of its results (scraped pages in the order they ended, at most 100 or `?limit=`
 * and about 10 MB, as Firecrawl bounds them), with `next` while results are left beyond it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { baseUrlOf } from './base-url.js';
import { batchUrl, FIRECRAWL_VERSIONS, sendJobNotFound } from './batch-answers.js';
import { BatchIdParams, BatchStatusAnswer, BatchStatusQuery } from './batch-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { authenticateUnlessWatch, jobWatchHandler } from './job-watch.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

function count(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) return undefined;
  return Number(raw);
}

/** `urlOf` names the path the `next` link points at (the batch's, or the crawl's). */
export function batchStatusHandler(
  version: FirecrawlVersion,
  services: ApiServices,
  urlOf: typeof batchUrl = batchUrl,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const query = request.query as { skip?: string; limit?: string };
    const skip = count(query.skip);
    const limit = count(query.limit);
    const answer = await services.batches.status(accountOf(request).id, id, {
      ...(skip === undefined ? {} : { skip }),
      ...(limit === undefined || limit === 0 ? {} : { limit }),
    });
    if (!answer) return sendJobNotFound(reply);
    const base = baseUrlOf(request, services.firecrawl.publicUrl);
    const next =
      answer.nextSkip === null
        ? null
        : `${urlOf(base, version, id)}?skip=${answer.nextSkip}${limit ? `&limit=${limit}` : ''}`;
    return reply.send({
      success: true,
      status: answer.status,
      completed: answer.completed,
      total: answer.total,
      creditsUsed: answer.creditsUsed,
      expiresAt: new Date(answer.expiresAt).toISOString(),
      ...(answer.error ? { error: answer.error } : {}),
      // Absent rather than null: the v1 SDK follows `next` whenever the key is there.
      ...(next ? { next } : {}),
      data: answer.data,
    });
  };
}

export const batchStatusSchema = (version: FirecrawlVersion, operationId: string) => ({
  operationId,
  summary: `A batch scrape's status and results (Firecrawl ${version})`,
  tags: [FIRECRAWL_TAG],
  security: [{ bearer: [] }],
  params: BatchIdParams,
  querystring: BatchStatusQuery,
  response: { 200: BatchStatusAnswer, 401: FirecrawlErrorBody, 404: FirecrawlErrorBody },
});

export default defineRoute((app, services) => {
  for (const version of FIRECRAWL_VERSIONS) {
    app.route({
      method: 'GET',
      url: `/${version}/batch/scrape/:id`,
      onRequest: authenticateUnlessWatch(app.authenticate),
      schema: batchStatusSchema(version, `firecrawlBatchStatus${version.toUpperCase()}`),
      handler: batchStatusHandler(version, services),
      // The v2 SDK's watcher({kind: 'batch'}) upgrades here (job-watch.ts).
      wsHandler: jobWatchHandler(version, services),
    });
  }
});
