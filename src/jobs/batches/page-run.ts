/**
 * One page of a batch, run by the lane that holds it, resumable at every step:
 *
 *   reserve   prepareOptions (plan, guard, credits: 402) → the plan is kept on the page row
 *   scrape    execute; before settling, the result is kept on the row (a Document, its
 *             screenshots stored once), then settled (charge or refund) once
 *   resume    a row with a result and no settlement is settled; one with a plan and no result
 *             is run again under the same reservation (the dead holder's run is lost)
 *
 * A page whose cached result is young enough (`maxAge`) is answered from the account's cache
 * and charged the cache price, under the page's id, once. Admission refusals (the account at
 * its concurrency limit, the node saturated) are not results: the lane waits and tries again.
 */
import type { Kysely } from 'kysely';
import { type AppError, appError, type ErrorCode, isAppError } from '../../errors.js';
import type { FirecrawlDocument, ScreenshotLinks } from '../../firecrawl/document.js';
import {
  addDerivedFormats,
  type FirecrawlScrapeParts,
  fromCache,
} from '../../firecrawl/firecrawl-scrape.js';
import { type FirecrawlScrape, firecrawlScrapeOf } from '../../firecrawl/scrape-request.js';
import type { ScrapeUseCase } from '../../scrape/scrape-use-case.js';
import type { Outcome, ScrapePlan } from '../../scrape/types.js';
import type { Batch } from '../../store/batches.js';
import {
  type BatchPage,
  getPage,
  savePagePlan,
  savePageResult,
} from '../../store/batches-pages.js';
import type { Database } from '../../store/schema.js';
import { isSettled } from '../../store/webhook-results.js';
import { type BatchOptions, batchOptionsOf } from './batch-options.js';
import { documentOfStored, outcomeOfStored, type StoredPage, storedPageOf } from './page-result.js';

export interface PageRunDeps {
  db: Kysely<Database>;
  /**
   * Runs writes that need no fsync of their own (the page's plan and result): the settle and
   * the page's end, durable, follow them in the log. Default: on `db`.
   */
  relaxed?: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  scraper: Pick<ScrapeUseCase, 'prepareOptions' | 'execute' | 'settle' | 'restore' | 'keep'>;
  /** The Firecrawl door's result cache; null: never read nor written. */
  cache: FirecrawlScrapeParts['cache'] | null;
  /**
   * What the formats made from the Markdown need (changeTracking, the model's json and
   * summary), as the /scrape route has them; absent: a page asking for them fails.
   */
  derived?: Pick<FirecrawlScrapeParts, 'models' | 'previous'>;
  /** Where a batch's screenshots go: kept until the batch expires, linked under its base URL. */
  screenshots(batch: Batch): ScreenshotLinks;
}

export interface PageContext {
  batch: Batch;
  page: BatchPage;
  account: { id: string; concurrencyLimit: number };
  signal: AbortSignal;
  /** Whether this worker still holds the lane's job: only a holder settles. */
  stillHeld(): Promise<boolean>;
  /** A crawl's page: its links are kept (StoredPage.discovered) for the frontier. */
  discoverLinks?: boolean;
  /**
   * A crawl's page: whether the target's answer asks to come back later (429, 503). Such an
   * answer is not kept nor charged (its reservation is refunded): the page is retried.
   */
  throttled?(outcome: Outcome): boolean;
  /** A crawl's page: its redirects checked as they are followed and where they led. */
  redirects?: PageRedirects;
}

/** What a crawl says about one run's redirects (jobs/crawls/crawl-frontier.ts). */
export interface PageRedirects {
  /** Before a hop is requested: whether the crawl may go there (robots.txt). */
  follow(url: URL): Promise<boolean>;
  /**
   * An ending when the run's answer is not the crawl's to keep: a hop was refused, or the
   * redirects led to a URL robots.txt disallows or another page of the crawl has. Such an
   * answer is not kept nor charged.
   */
  landed(outcome: Outcome): Promise<PageEnding | null>;
}

/** A page's end: its state and, when it did not succeed, why. */
export type PageEnding = Extract<PageStep, { type: 'end' }>;

/** How the page's turn ended. */
export type PageStep =
  | {
      type: 'end';
      state: 'done' | 'failed' | 'cancelled' | 'blocked' | 'redirected';
      errorCode: ErrorCode | null;
      error: string | null;
      /** The batch cannot go on (its account ran out of credits): it fails with this text. */
      stopBatch?: string;
    }
  | { type: 'release'; runAt?: number }
  /**
   * The target throttled the page: it goes back to the queue (its reservation refunded);
   * `retryAfter`: the answer's Retry-After header, as sent.
   */
  | { type: 'throttled'; retryAfter?: string }
  /** The lane's job went to another holder: it carries on. */
  | { type: 'lost' };

const NO_CAPACITY: ReadonlySet<ErrorCode> = new Set(['TOO_MANY_CONCURRENT', 'NODE_SATURATED']);
const CAPACITY_WAIT_MS = 500;

function ended(stored: StoredPage): PageStep {
  if (stored.ok) return { type: 'end', state: 'done', errorCode: null, error: null };
  return {
    type: 'end',
    state: 'failed',
    errorCode: stored.code,
    error: stored.error,
    // A page that could not pay for its render (its engine escalated) stops the batch as a
    // refused reservation does: the pages after it could not pay either.
    ...(stored.code === 'INSUFFICIENT_CREDITS' ? { stopBatch: stored.error } : {}),
  };
}

function refused(error: AppError): PageStep {
  return {
    type: 'end',
    state: 'failed',
    errorCode: error.code,
    error: error.message,
    ...(error.code === 'INSUFFICIENT_CREDITS' ? { stopBatch: error.message } : {}),
  };
}

/** The request log tells a crawl's pages (they discover links) from a batch's. */
function sourceOf(context: PageContext): 'crawl' | 'batch' {
  return context.discoverLinks ? 'crawl' : 'batch';
}

export async function runPage(deps: PageRunDeps, context: PageContext): Promise<PageStep> {
  const { db } = deps;
  const relaxed = deps.relaxed ?? ((work) => work(db));
  const { batch } = context;
  let { page } = context;
  const options: BatchOptions = batchOptionsOf(batch);
  let scrape: FirecrawlScrape;
  try {
    scrape = firecrawlScrapeOf(page.url, options.scrape, options.version, 'offered');
  } catch (error) {
    if (isAppError(error)) return refused(error);
    throw error;
  }
  const askedLinks = scrape.options.document?.links === true;
  if (context.discoverLinks && scrape.options.document && !askedLinks) {
    scrape = {
      ...scrape,
      options: { ...scrape.options, document: { ...scrape.options.document, links: true } },
    };
  }
  const discovered = context.discoverLinks ? (askedLinks ? 'copy' : 'move') : undefined;
  const asked = {
    door: 'firecrawl',
    version: options.version,
    body: { url: page.url, ...options.scrape },
    batchId: batch.id,
  } as const;
  const screenshots = () => (scrape.screenshotBase64 ? 'inline' : deps.screenshots(batch));
  /** The formats made from the Markdown, as the route makes them; what the model cost. */
  const derive = async (document: FirecrawlDocument, requestId: string) => {
    if (!scrape.model && !scrape.changeTracking) return 0;
    if (!deps.derived) throw appError('INTERNAL');
    return addDerivedFormats(deps.derived, document, scrape, {
      accountId: context.account.id,
      requestId,
      signal: context.signal,
    });
  };
  const store = async (
    outcome: Outcome,
    requestId: string,
    hit?: { cachedAt: number; document: FirecrawlDocument },
  ) => {
    let stored: StoredPage;
    try {
      stored = await storedPageOf(outcome, {
        sourceUrl: page.url,
        screenshots: screenshots(),
        ...(hit ? { cachedAt: hit.cachedAt, document: hit.document } : {}),
        ...(discovered ? { discovered } : {}),
        derive: (document) => derive(document, requestId),
        hideMarkdown: scrape.hideMarkdown,
      });
    } catch (error) {
      // A model's failure is the page's; a result this door cannot read (not a document) is
      // the scrape's failure, not ours.
      stored = isAppError(error)
        ? { ok: false, code: error.code, error: error.message }
        : { ok: false, code: 'INTERNAL', error: 'Internal server error' };
    }
    const text = JSON.stringify(stored);
    const kept = await relaxed((trx) => savePageResult(trx, page.id, text, requestId));
    if (!kept?.result) throw new Error(`batch page ${page.id} vanished while it ran`);
    page = kept;
    return JSON.parse(kept.result) as StoredPage;
  };

  /** The request log keeps the Document as the caller reads it: its charge and scrape id. */
  const keepForLog = (plan: ScrapePlan, stored: string, charged: number) => {
    const document = documentOfStored(stored, { credits: charged, scrapeId: plan.requestId });
    if (!document) return;
    const body = Buffer.from(JSON.stringify(document));
    deps.scraper.keep(plan, { contentType: 'application/json; charset=utf-8', body });
  };

  if (page.result !== null) {
    // A holder died after keeping the result: settle it if it was not.
    const stored = JSON.parse(page.result) as StoredPage;
    if (page.plan !== null && page.requestId && !(await isSettled(db, page.requestId))) {
      if (!(await context.stillHeld())) return { type: 'lost' };
      const plan = deps.scraper.restore(JSON.parse(page.plan));
      const { charged } = await deps.scraper.settle(plan, outcomeOfStored(stored), false);
      keepForLog(plan, page.result, charged);
    }
    return ended(stored);
  }

  if (page.plan === null) {
    if (batch.status !== 'scraping') {
      return { type: 'end', state: 'cancelled', errorCode: null, error: null };
    }
    if (deps.cache) {
      let hit: Awaited<ReturnType<typeof fromCache>>;
      try {
        // Charged under the page's id, so a holder that died after the charge is not charged again.
        hit = await fromCache(
          { cache: deps.cache },
          scrape,
          { account: context.account, requestId: page.id, source: sourceOf(context), asked },
          { screenshots: screenshots(), sourceUrl: page.url },
          async () => !(await isSettled(db, page.id)),
        );
      } catch (error) {
        if (isAppError(error)) return refused(error);
        throw error;
      }
      if (hit) return ended(await store({ ok: true, result: hit.result }, page.id, hit));
    }
    let plan: ScrapePlan;
    try {
      plan = await deps.scraper.prepareOptions(
        context.account,
        scrape.options,
        undefined,
        sourceOf(context),
        asked,
      );
    } catch (error) {
      if (isAppError(error)) return refused(error);
      throw error;
    }
    const planText = JSON.stringify(plan);
    if (!(await relaxed((trx) => savePagePlan(trx, page.id, plan.requestId, planText)))) {
      // Another holder reserved first: ours goes back, theirs is the page's.
      await deps.scraper.settle(plan, { ok: false, error: appError('INTERNAL') });
      const current = await getPage(db, page.id);
      if (current?.state !== 'running' || current.plan === null) return { type: 'lost' };
      page = current;
    } else {
      page = { ...page, plan: JSON.stringify(plan), requestId: plan.requestId };
    }
  }

  const plan = deps.scraper.restore(JSON.parse(page.plan ?? 'null'));
  const { signal } = context;
  let step: PageStep | null = null;
  let kept: StoredPage | null = null;
  const { redirects } = context;
  const settled = await deps.scraper.execute(plan, {
    signal,
    keepResult: false,
    ...(redirects ? { followRedirect: (url: URL) => redirects.follow(url) } : {}),
    beforeSettle: async (outcome: Outcome) => {
      if (signal.aborted) {
        step = { type: 'release' };
        return null;
      }
      if (!outcome.ok && NO_CAPACITY.has(outcome.error.code)) {
        step = { type: 'release', runAt: Date.now() + CAPACITY_WAIT_MS * (0.5 + Math.random()) };
        return null;
      }
      if (context.throttled?.(outcome)) {
        const retryAfter = outcome.ok ? outcome.result.retryAfter : undefined;
        step = { type: 'throttled', ...(retryAfter ? { retryAfter } : {}) };
        if (await isSettled(db, plan.requestId)) return null;
        if (!(await context.stillHeld())) {
          step = { type: 'lost' };
          return null;
        }
        const refund: Outcome = {
          ok: false,
          error: appError('FETCH_FAILED', 'the site asked to slow down'),
        };
        return refund;
      }
      const elsewhere = context.redirects ? await context.redirects.landed(outcome) : null;
      if (elsewhere) {
        step = elsewhere;
        if (await isSettled(db, plan.requestId)) return null;
        if (!(await context.stillHeld())) {
          step = { type: 'lost' };
          return null;
        }
        const refund: Outcome = {
          ok: false,
          error: appError('FETCH_FAILED', elsewhere.error ?? 'redirected'),
        };
        return refund;
      }
      kept = await store(outcome, plan.requestId);
      if (outcome.ok && kept.ok && scrape.storeInCache && deps.cache) {
        await deps.cache.remember(context.account.id, scrape.options, outcome.result);
      }
      if (await isSettled(db, plan.requestId)) return null;
      if (!(await context.stillHeld())) {
        step = { type: 'lost' };
        return null;
      }
      return outcomeOfStored(kept);
    },
  });
  if (step) return step;
  if (!kept) throw new Error(`batch page ${page.id} ran without a result`);
  if (settled.settled && page.result !== null) keepForLog(plan, page.result, settled.charged);
  return ended(kept);
}
