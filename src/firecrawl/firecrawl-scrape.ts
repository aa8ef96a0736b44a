/**
 * The Firecrawl scrape, as every door path runs it (the /scrape route, a batch's page, a
 * crawl's page): the account's cache or the native scrape, the Document built once from the
 * page, then the formats made from it (changeTracking, the model's json and summary). The
 * route only translates HTTP; a batch or crawl page runs the same steps between its own
 * resumable ones (jobs/batches/page-run.ts).
 */
import type { Kysely } from 'kysely';
import { appError } from '../errors.js';
import type { ModelCalls } from '../models/model-calls.js';
import type { NodeSlot } from '../scrape/admission/admission.js';
import { servedRecord } from '../scrape/run-record-of.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type {
  AskedRequest,
  PageDocument,
  RequestSource,
  ScrapeOptions,
  ScrapeResult,
} from '../scrape/types.js';
import type { KeptResults } from '../store/kept-results.js';
import type { Database } from '../store/schema.js';
import { checkChangeTracking, trackChanges } from './change-tracking.js';
import {
  type DocumentFacts,
  type FirecrawlDocument,
  firecrawlDocumentOf,
  type ScreenshotLinks,
} from './document.js';
import type { FirecrawlServices } from './door-services.js';
import { addModelFormats, checkModelFormats } from './model-formats.js';
import type { FirecrawlScrape } from './scrape-request.js';

export interface FirecrawlScrapeParts {
  scraper: Pick<ScrapeUseCase, 'prepareOptions' | 'execute' | 'keep'>;
  /** The account's result cache. */
  cache: Pick<FirecrawlServices, 'cached' | 'chargeHit' | 'remember'>;
  /** The operator's model (the json and summary formats); null: none configured. */
  models: ModelCalls | null;
  /** Where changeTracking finds the URL's previous scrape. */
  previous: { db: Kysely<Database>; keptResults: Pick<KeptResults, 'read'> };
}

/** Who asks, and how the request log tells it. */
export interface FirecrawlAsker {
  account: { id: string; concurrencyLimit: number };
  requestId: string;
  source: RequestSource;
  asked: AskedRequest;
}

/**
 * Before anything is charged: a format the server cannot make (no model configured, a
 * schema that is no JSON schema) is a 400 that costs nothing.
 */
export function checkFormats(scrape: FirecrawlScrape, models: ModelCalls | null): void {
  if (scrape.changeTracking) checkChangeTracking(scrape.changeTracking, models);
  if (!scrape.model) return;
  if (!models) {
    throw appError(
      'MODEL_NOT_CONFIGURED',
      scrape.model.json ? 'The json format' : 'The summary format',
    );
  }
  checkModelFormats(scrape.model);
}

/** A scrape's result (the pipeline's PageDocument) as Firecrawl's Document, built once. */
export function documentOfResult(
  result: ScrapeResult,
  facts: Pick<DocumentFacts, 'sourceURL'> & Partial<DocumentFacts>,
  screenshots: ScreenshotLinks | 'inline',
): Promise<FirecrawlDocument> {
  // A scrape's own result is the worker's PageDocument; a cached one is its stored JSON.
  const page = result.document ?? (JSON.parse(result.body.toString('utf8')) as PageDocument);
  return firecrawlDocumentOf(
    page,
    {
      finalUrl: result.finalUrl,
      statusCode: result.targetStatus,
      scrapeId: '',
      creditsUsed: 0,
      cacheState: 'miss',
      ...(result.used ? { used: result.used } : {}),
      ...facts,
    },
    screenshots,
  );
}

/** How a Document shows: its screenshots, and the URL asked for when not the options' own. */
export interface DocumentView {
  screenshots: ScreenshotLinks | 'inline';
  sourceUrl?: string;
}

/** A cached page young enough for `maxAge`: charged with its own record, as a Document. */
export interface CacheHit {
  document: FirecrawlDocument;
  result: ScrapeResult;
  cachedAt: number;
  charged: number;
}

/**
 * The page from the account's cache when one is young enough (null: none), charged the
 * cache price under `asker.requestId` with its request record (every scrape leaves one);
 * 402 when short. `charge` says whether to (false: already charged under that id, a batch
 * page resumed).
 */
export async function fromCache(
  parts: Pick<FirecrawlScrapeParts, 'cache'>,
  scrape: FirecrawlScrape,
  asker: FirecrawlAsker,
  view: DocumentView,
  charge: () => Promise<boolean> = async () => true,
): Promise<CacheHit | null> {
  if (scrape.maxAgeMs <= 0) return null;
  const { account, requestId } = asker;
  const hit = await parts.cache.cached(account.id, scrape.options, scrape.maxAgeMs);
  if (!hit) return null;
  const createdAt = Date.now();
  const charged = (await charge())
    ? (
        await parts.cache.chargeHit(account.id, requestId, (price) =>
          servedRecord(recordSource(scrape.options, asker, createdAt), hit.result, price),
        )
      ).charged
    : 0;
  const document = await documentOfResult(
    hit.result,
    {
      sourceURL: view.sourceUrl ?? scrape.options.url,
      scrapeId: requestId,
      creditsUsed: charged,
      cacheState: 'hit',
      cachedAt: new Date(hit.cachedAt).toISOString(),
    },
    view.screenshots,
  );
  return { document, result: hit.result, cachedAt: hit.cachedAt, charged };
}

function recordSource(options: ScrapeOptions, asker: FirecrawlAsker, createdAt: number) {
  return {
    requestId: asker.requestId,
    accountId: asker.account.id,
    workflowId: null,
    options,
    createdAt,
    source: asker.source,
    asked: asker.asked,
  };
}

/**
 * Adds the formats made from the Document's Markdown (changeTracking, then the model's);
 * the credits the model's calls cost (each its own request).
 */
export async function addDerivedFormats(
  parts: Pick<FirecrawlScrapeParts, 'models' | 'previous'>,
  document: FirecrawlDocument,
  scrape: FirecrawlScrape,
  context: { accountId: string; requestId: string; signal?: AbortSignal },
): Promise<number> {
  const url = scrape.options.url;
  const signal = context.signal ? { signal: context.signal } : {};
  let charged = 0;
  if (scrape.changeTracking) {
    const tracked = await trackChanges(
      { ...parts.previous, models: parts.models },
      scrape.changeTracking,
      { markdown: document.markdown ?? '', statusCode: Number(document.metadata.statusCode) },
      { accountId: context.accountId, url, requestId: context.requestId, ...signal },
    );
    document.changeTracking = { ...tracked.tracking };
    charged += tracked.charged;
  }
  if (!scrape.model || !parts.models) return charged;
  return (
    charged +
    (await addModelFormats(document, scrape.model, parts.models, {
      accountId: context.accountId,
      url,
      ...signal,
    }))
  );
}

/** The Markdown the derived formats needed, left out when the caller did not ask for it. */
export function shownDocument(document: FirecrawlDocument, scrape: FirecrawlScrape) {
  if (!scrape.hideMarkdown) return document;
  const { markdown: _hidden, ...rest } = document;
  return rest;
}

/** One scrape as the /scrape route answers it. */
export interface FirecrawlAnswer {
  /** The Document as answered, serialised once (the request log keeps the same text). */
  json: string;
  /** What the page cost, the model's calls included. */
  charged: number;
  cacheState: 'hit' | 'miss';
}

const DOCUMENT_TYPE = 'application/json; charset=utf-8';

/**
 * The whole scrape of the /scrape route: the cache or the native scrape (`execute` with the
 * door's node slot; `signal`: the caller hung up), the Document, its derived formats.
 * Throws the scrape's failure as a catalog error.
 */
export async function runFirecrawlScrape(
  parts: FirecrawlScrapeParts,
  scrape: FirecrawlScrape,
  asker: FirecrawlAsker,
  run: { screenshots: ScreenshotLinks | 'inline'; nodeSlot: NodeSlot; signal: AbortSignal },
): Promise<FirecrawlAnswer> {
  checkFormats(scrape, parts.models);
  const { account } = asker;
  const derive = async (document: FirecrawlDocument, requestId: string) => {
    const charged = await addDerivedFormats(parts, document, scrape, {
      accountId: account.id,
      requestId,
    });
    document.metadata.creditsUsed = Number(document.metadata.creditsUsed) + charged;
    return charged;
  };

  const hit = await fromCache(parts, scrape, asker, { screenshots: run.screenshots });
  if (hit) {
    const charged = hit.charged + (await derive(hit.document, asker.requestId));
    const json = JSON.stringify(shownDocument(hit.document, scrape));
    return { json, charged, cacheState: 'hit' };
  }

  const plan = await parts.scraper.prepareOptions(
    account,
    scrape.options,
    asker.requestId,
    asker.source,
    asker.asked,
  );
  const { outcome, charged } = await parts.scraper.execute(plan, {
    signal: run.signal,
    nodeSlot: run.nodeSlot,
    keepResult: false,
  });
  if (!outcome.ok) throw outcome.error;
  if (scrape.storeInCache) await parts.cache.remember(account.id, scrape.options, outcome.result);
  const full = await documentOfResult(
    outcome.result,
    { sourceURL: scrape.options.url, scrapeId: plan.requestId, creditsUsed: charged },
    run.screenshots,
  );
  const modelCharged = await derive(full, plan.requestId);
  const answered = shownDocument(full, scrape);
  // The request log keeps the Document as answered, its charge and scrape id included; with
  // change tracking its Markdown too, which the next scrape of the URL is compared with.
  const json = JSON.stringify(answered);
  const kept = scrape.changeTracking && answered !== full ? JSON.stringify(full) : json;
  parts.scraper.keep(plan, { contentType: DOCUMENT_TYPE, body: Buffer.from(kept) });
  return { json, charged: charged + modelCharged, cacheState: 'miss' };
}
