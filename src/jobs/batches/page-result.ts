/**
 * A batch page's result as its row keeps it (JSON text), both ways: the lane stores what the
 * scrape produced before settling it, already in Firecrawl's Document shape (its screenshots
 * stored once, as links kept until the batch expires), and a lane taken over after a crash
 * settles what was stored.
 */
import { AppError, type ErrorCode, statusOf } from '../../errors.js';
import type { FirecrawlDocument, ScreenshotLinks } from '../../firecrawl/document.js';
import { documentOfResult } from '../../firecrawl/firecrawl-scrape.js';
import type { Outcome, ScrapeResult, UsedResources } from '../../scrape/types.js';

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
      /** What the model's formats cost (their own requests), added to the page's charge. */
      modelCredits?: number;
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
  /** The Document already built (a cache hit's). */
  document?: FirecrawlDocument;
  /** Adds the formats made from the Markdown (changeTracking, the model's); their cost. */
  derive?: (document: FirecrawlDocument) => Promise<number>;
  /** The Markdown was made for the derived formats only: not in the Document. */
  hideMarkdown?: boolean;
}

export async function storedPageOf(outcome: Outcome, context: StoreContext): Promise<StoredPage> {
  if (!outcome.ok) {
    return { ok: false, code: outcome.error.code, error: outcome.error.message };
  }
  const { result } = outcome;
  const document =
    context.document ??
    (await documentOfResult(
      result,
      {
        sourceURL: context.sourceUrl,
        ...(context.cachedAt === undefined
          ? {}
          : { cacheState: 'hit', cachedAt: new Date(context.cachedAt).toISOString() }),
      },
      context.screenshots,
    ));
  const modelCredits = context.derive ? await context.derive(document) : 0;
  if (context.hideMarkdown) delete document.markdown;
  const links = (document as { links?: string[] }).links;
  if (context.discovered === 'move') delete (document as { links?: string[] }).links;
  return {
    ok: true,
    finalUrl: result.finalUrl,
    targetStatus: result.targetStatus,
    ...(result.used ? { used: result.used } : {}),
    document,
    ...(context.discovered ? { discovered: links ?? [] } : {}),
    ...(modelCredits > 0 ? { modelCredits } : {}),
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
  document.metadata.creditsUsed = facts.credits + (page.modelCredits ?? 0);
  if (facts.scrapeId) document.metadata.scrapeId = facts.scrapeId;
  return document;
}
