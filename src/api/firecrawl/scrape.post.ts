/**
 * POST /v2/scrape and POST /v1/scrape: one page, several formats from one load. The body is
 * translated (firecrawl/scrape-request.ts) and scraped by firecrawl/firecrawl-scrape.ts, as a
 * batch or crawl page is (the account's cache, or the native scrape with its credits, guard,
 * blockers and proxies; the Document; changeTracking and the model's formats): this route
 * only takes the node slot, watches the caller's connection and sends the answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';
import { type FirecrawlScrapeParts, runFirecrawlScrape } from '../../firecrawl/firecrawl-scrape.js';
import { ALEXANDRIA, isAlexandriaBody, notOfferedMessage } from '../../firecrawl/not-offered.js';
import {
  type FirecrawlScrapeOptions,
  type FirecrawlVersion,
  firecrawlScrapeOf,
} from '../../firecrawl/scrape-request.js';
import type { NodeSlot } from '../../scrape/admission/admission.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { baseUrlOf } from './base-url.js';
import { FIRECRAWL_TAG } from './door.js';
import { sendNotOffered } from './not-offered-answer.js';
import { FirecrawlErrorBody, FirecrawlScrapeAnswer } from './schemas/answers.js';
import { ScrapeBodyV1, ScrapeBodyV2 } from './schemas/scrape-options.js';

type Body = { url: string } & FirecrawlScrapeOptions;

function scrapeHandler(version: FirecrawlVersion, services: ApiServices) {
  const { scraper, firecrawl, models } = services;
  const parts: FirecrawlScrapeParts = {
    scraper,
    cache: firecrawl,
    models,
    previous: { db: services.store.db, keptResults: services.keptResults },
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // Before the cache and the reservation: a saturated node's 503 charges and records
    // nothing, so a balancer may retry it on another node.
    const slot = scraper.holdNode();
    try {
      return await scrapeWithSlot(request, reply, slot);
    } finally {
      slot.release();
    }
  };

  async function scrapeWithSlot(request: FastifyRequest, reply: FastifyReply, slot: NodeSlot) {
    const account = accountOf(request);
    const { url, ...options } = request.body as Body;
    const scrape = firecrawlScrapeOf(url, options, version, 'offered');
    const baseUrl = baseUrlOf(request, firecrawl.publicUrl);
    // A caller that hangs up stops the scrape; its reservation is refunded.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort(appError('CLIENT_CLOSED'));
    });
    const body = request.body as Record<string, unknown>;
    const { json } = await runFirecrawlScrape(
      parts,
      scrape,
      {
        account,
        requestId: request.id,
        source: 'firecrawl',
        asked: { door: 'firecrawl', version, body },
      },
      {
        screenshots: scrape.screenshotBase64
          ? 'inline'
          : firecrawl.screenshotLinks(account.id, baseUrl),
        nodeSlot: slot,
        signal: gone.signal,
      },
    );
    return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${json}}`);
  }
}

const errors = Object.fromEntries(
  [400, 401, 402, 403, 408, 429, 500, 502, 503, 504].map((status) => [status, FirecrawlErrorBody]),
);

export default defineRoute((app, services) => {
  for (const [version, body] of [
    ['v2', ScrapeBodyV2],
    ['v1', ScrapeBodyV1],
  ] as const) {
    app.post(
      `/${version}/scrape`,
      {
        onRequest: app.authenticate,
        // Before the body's validation, which would call the key unknown rather than say why.
        preValidation: async (request, reply) => {
          if (!isAlexandriaBody(request.body)) return;
          sendNotOffered(request, reply, notOfferedMessage(ALEXANDRIA));
          return reply;
        },
        schema: {
          operationId: `firecrawlScrape${version.toUpperCase()}`,
          summary: `Scrape one page (Firecrawl ${version})`,
          description:
            'Several formats from one load: markdown, html (cleaned), rawHtml, links, screenshot; metadata always. Actions, mobile, location, proxy and the cache as Firecrawl defines them.',
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          body,
          response: { 200: FirecrawlScrapeAnswer, ...errors },
        },
      },
      scrapeHandler(version, services),
    );
  }
});
