/**
 * A batch page's result as its row keeps it (JSON text), both ways: the lane stores what the
 * scrape produced before settling it, already in Firecrawl's Document shape (its screenshots
 * stored once, as links kept until the batch expires), and a lane taken over after a crash
 * settles what was stored.
 */
import { AppError, type ErrorCode, statusOf } from '../../errors.js';
import {
  type FirecrawlDocument,
  firecrawlDocumentOf,
  type ScreenshotLinks,
} from '../../firecrawl/document.js';
import type { Outcome, PageDocument, ScrapeResult, UsedResources } from '../../scrape/types.js';

export type StoredPage =
  | {
      ok: true;
      finalUrl: string;
      targetStatus: number;
      used?: UsedResources;
      /** Without the charge (creditsUsed) and scrapeId: those are set when it is read. */
      document: FirecrawlDocument;
      /** A crawl's page: every link it has, whether or not the caller asked for links. */
      discovered?: string[];
    }
  | { ok: false; code: ErrorCode; error: string };

export interface StoreContext {
  /** The URL as the caller gave it (metadata.sourceURL). */
  sourceUrl: string;
  screenshots: ScreenshotLinks | 'inline';
  /** When the result came from the account's cache: when it was made. */
  cachedAt?: number;
  /**
   * A crawl's page: keep its links as `discovered`; `move` when the caller did not ask for
   * links (they leave the Document), `copy` when it did.
   */
  discovered?: 'move' | 'copy';
}

export async function storedPageOf(outcome: Outcome, context: StoreContext): Promise<StoredPage> {
  if (!outcome.ok) {
    return { ok: false, code: outcome.error.code, error: outcome.error.message };
  }
  const { result } = outcome;
  const page = JSON.parse(result.body.toString('utf8')) as PageDocument;
  const document = await firecrawlDocumentOf(
    page,
    {
      sourceURL: context.sourceUrl,
      finalUrl: result.finalUrl,
      statusCode: result.targetStatus,
      scrapeId: '',
      creditsUsed: 0,
      cacheState: context.cachedAt === undefined ? 'miss' : 'hit',
      ...(context.cachedAt === undefined
        ? {}
        : { cachedAt: new Date(context.cachedAt).toISOString() }),
      ...(result.used ? { used: result.used } : {}),
    },
    context.screenshots,
  );
  const links = (document as { links?: string[] }).links;
  if (context.discovered === 'move') delete (document as { links?: string[] }).links;
  return {
    ok: true,
    finalUrl: result.finalUrl,
    targetStatus: result.targetStatus,
    ...(result.used ? { used: result.used } : {}),
    document,
    ...(context.discovered ? { discovered: links ?? [] } : {}),
  };
}

/** The outcome back from its stored form, to settle it (the charge depends on `used` only). */
export function outcomeOfStored(stored: StoredPage): Outcome {
  if (!stored.ok) {
    return { ok: false, error: new AppError(stored.code, statusOf(stored.code), stored.error, {}) };
  }
  const result: ScrapeResult = {
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify(stored.document)),
    finalUrl: stored.finalUrl,
    targetStatus: stored.targetStatus,
    ...(stored.used ? { used: stored.used } : {}),
  };
  return { ok: true, result };
}

/** The Document a caller reads: the stored one with its charge and scrape id. */
export function documentOfStored(
  stored: string,
  facts: { credits: number; scrapeId: string | null },
): FirecrawlDocument | null {
  const page = JSON.parse(stored) as StoredPage;
  if (!page.ok) return null;
  const { document } = page;
  document.metadata.creditsUsed = facts.credits;
  if (facts.scrapeId) document.metadata.scrapeId = facts.scrapeId;
  return document;
}
