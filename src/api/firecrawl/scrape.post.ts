/**
 * POST /v2/scrape and POST /v1/scrape: one page, several formats from one load. The body is
 * translated (firecrawl/scrape-request.ts) into the pipeline's options; the scrape is the
 * native one (prepareOptions → execute: same credits, guard, blockers, proxies); a result of
 * the same options no older than `maxAge` answers from the account's cache instead.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';
import { checkChangeTracking, trackChanges } from '../../firecrawl/change-tracking.js';
import { type FirecrawlDocument, firecrawlDocumentOf } from '../../firecrawl/document.js';
import { addModelFormats, checkModelFormats } from '../../firecrawl/model-formats.js';
import { ALEXANDRIA, isAlexandriaBody, notOfferedMessage } from '../../firecrawl/not-offered.js';
import {
  type FirecrawlScrapeOptions,
  type FirecrawlVersion,
  firecrawlScrapeOf,
} from '../../firecrawl/scrape-request.js';
import type { NodeSlot } from '../../scrape/admission/admission.js';
import type { PageDocument, ScrapeResult } from '../../scrape/types.js';
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
    // Before the scrape: a format the server cannot make costs nothing.
    if (scrape.model && !models) {
      throw appError(
        'MODEL_NOT_CONFIGURED',
        scrape.model.json ? 'The json format' : 'The summary format',
      );
    }
    if (scrape.model) checkModelFormats(scrape.model);
    if (scrape.changeTracking) checkChangeTracking(scrape.changeTracking, models);
    const withModel = async (data: FirecrawlDocument, requestId: string) => {
      if (scrape.changeTracking) {
        const { tracking, charged } = await trackChanges(
          { db: services.store.db, keptResults: services.keptResults, models },
          scrape.changeTracking,
          { markdown: data.markdown ?? '', statusCode: Number(data.metadata.statusCode) },
          { accountId: account.id, url: scrape.options.url, requestId },
        );
        data.changeTracking = { ...tracking };
        data.metadata.creditsUsed = Number(data.metadata.creditsUsed) + charged;
      }
      if (scrape.model && models) {
        const charged = await addModelFormats(data, scrape.model, models, {
          accountId: account.id,
          url: scrape.options.url,
        });
        data.metadata.creditsUsed = Number(data.metadata.creditsUsed) + charged;
      }
      return data;
    };
    /** The Markdown the model formats needed, left out when the caller did not ask for it. */
    const shown = (data: FirecrawlDocument): FirecrawlDocument => {
      if (!scrape.hideMarkdown) return data;
      const { markdown: _hidden, ...rest } = data;
      return rest;
    };
    const baseUrl = baseUrlOf(request, firecrawl.publicUrl);
    const links = scrape.screenshotBase64
      ? ('inline' as const)
      : firecrawl.screenshotLinks(account.id, baseUrl);

    const hit = await firecrawl.cached(account.id, scrape.options, scrape.maxAgeMs);
    if (hit) {
      const { charged } = await firecrawl.chargeHit(account.id, request.id);
      const data = await firecrawlDocumentOf(pageOf(hit.result), factsOf(hit.result), links);
      Object.assign(data.metadata, {
        scrapeId: request.id,
        sourceURL: scrape.options.url,
        creditsUsed: charged,
        cacheState: 'hit',
        cachedAt: new Date(hit.cachedAt).toISOString(),
      });
      return reply.send({ success: true, data: shown(await withModel(data, request.id)) });
    }

    const body = request.body as Record<string, unknown>;
    const asked = { door: 'firecrawl', version, body } as const;
    const plan = await scraper.prepareOptions(
      account,
      scrape.options,
      request.id,
      'firecrawl',
      asked,
    );
    // A caller that hangs up stops the scrape; its reservation is refunded.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort(appError('CLIENT_CLOSED'));
    });
    const { outcome, charged } = await scraper.execute(plan, {
      signal: gone.signal,
      nodeSlot: slot,
      keepResult: false,
    });
    if (!outcome.ok) throw outcome.error;
    if (scrape.storeInCache) await firecrawl.remember(account.id, scrape.options, outcome.result);
    const data = await firecrawlDocumentOf(
      pageOf(outcome.result),
      { ...factsOf(outcome.result), scrapeId: plan.requestId, creditsUsed: charged },
      links,
    );
    data.metadata.sourceURL = scrape.options.url;
    const full = await withModel(data, plan.requestId);
    const answered = shown(full);
    // The request log keeps the Document as answered, its charge and scrape id included; with
    // change tracking its Markdown too, which the next scrape of the URL is compared with.
    const kept = scrape.changeTracking ? full : answered;
    // The Document is serialised once: the kept copy's text is the answer's too.
    const text = JSON.stringify(answered);
    const keptText = kept === answered ? text : JSON.stringify(kept);
    scraper.keep(plan, { contentType: DOCUMENT_TYPE, body: Buffer.from(keptText) });
    return reply.type(DOCUMENT_TYPE).send(`{"success":true,"data":${text}}`);
  }
}

const DOCUMENT_TYPE = 'application/json; charset=utf-8';

function pageOf(result: ScrapeResult): PageDocument {
  return JSON.parse(result.body.toString('utf8')) as PageDocument;
}

function factsOf(result: ScrapeResult) {
  return {
    sourceURL: result.finalUrl,
    finalUrl: result.finalUrl,
    statusCode: result.targetStatus,
    scrapeId: '',
    creditsUsed: 0,
    cacheState: 'miss' as const,
    ...(result.used ? { used: result.used } : {}),
  };
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
