/**
 * Firecrawl's extract as a durable job: POST stores the extract and its job in one
 * transaction and answers its id; the job (on any node) reads each page as a Firecrawl scrape
 * of its own (charged as one), a `/*` site through a map first (charged as one), up to
 * EXTRACT_MAX_PAGES, then asks the model once over all their Markdown (one paid model call),
 * and stores the answer; GET polls the row. An extract that cannot finish ends `failed` with
 * its reason; only an unreachable database leaves the job to be retried.
 */

import type { Kysely } from 'kysely';
import type { Ledger } from '../../billing/credits.js';
import { appError, isAppError } from '../../errors.js';
import { firecrawlScrapeOf } from '../../firecrawl/scrape-request.js';
import type { MapService } from '../../map/map-service.js';
import type { ModelCalls } from '../../models/model-calls.js';
import { extractJson } from '../../models/structured-answer.js';
import type { ScrapeUseCase } from '../../scrape/scrape-use-case.js';
import type { Outcome, ScrapePlan } from '../../scrape/types.js';
import { isDatabaseUnavailable } from '../../store/database-errors.js';
import type { Store } from '../../store/db.js';
import {
  dropExtractPages,
  type ExtractPage,
  endExtractPage,
  extractPagesOf,
  listExtractPages,
} from '../../store/extract-pages.js';
import {
  addExtractCredits,
  type ExtractRow,
  endExtract,
  getExtract,
  insertExtract,
} from '../../store/extracts.js';
import { newId } from '../../store/ids.js';
import type { ClaimedJob, JobQueue } from '../../store/job-queue.js';
import type { Database } from '../../store/schema.js';
import type { JobHandler } from '../job-worker.js';
import { type ExtractBody, type ExtractRequest, extractRequestOf } from './extract-request.js';

export const EXTRACT_JOB = 'extract';

/** Firecrawl keeps an extract's answer for a day. */
export const EXTRACT_RETENTION_MS = 24 * 3600_000;
/** A page refused for the account's or node's concurrency is tried again this often. */
const ADMISSION_RETRY_MS = 500;
const ADMISSION_TRIES = 20;

export interface ExtractService {
  start(
    account: { id: string; concurrencyLimit: number },
    body: ExtractBody,
    version: 'v1' | 'v2',
  ): Promise<{ id: string; invalidURLs: string[] }>;
  status(accountId: string, id: string): Promise<ExtractRow>;
}

export interface ExtractDeps {
  store: Store;
  queue: JobQueue;
  scraper: Pick<ScrapeUseCase, 'prepareOptions' | 'execute' | 'settle'>;
  map: Pick<MapService, 'mapDeferred'>;
  /** null: no model configured, and every extract is a 400 naming the settings. */
  models: ModelCalls | null;
  maxPages: number;
  /** Wakes this node's extract worker after an enqueue. */
  wake(): void;
}

export function createExtractService(deps: ExtractDeps): ExtractService {
  return {
    async start(account, body, version) {
      if (!deps.models) throw appError('MODEL_NOT_CONFIGURED', 'The extract endpoint');
      const { request, invalidURLs } = extractRequestOf(body, version, account.concurrencyLimit);
      const id = newId();
      const createdAt = Date.now();
      await deps.store.transact(async (trx) => {
        await insertExtract(trx, {
          id,
          accountId: account.id,
          request,
          createdAt,
          expiresAt: createdAt + EXTRACT_RETENTION_MS,
        });
        await deps.queue.within(trx).enqueue(EXTRACT_JOB, { id }, { id, maxAttempts: 3 });
      });
      deps.wake();
      return { id, invalidURLs };
    },
    async status(accountId, id) {
      const row = await getExtract(deps.store.db, id, accountId);
      if (!row) throw appError('EXTRACT_NOT_FOUND');
      return row;
    },
  };
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });

export function extractJobHandler(deps: ExtractDeps): JobHandler {
  return async (job: ClaimedJob, signal: AbortSignal) => {
    const { id } = job.payload as { id: string };
    const row = await getExtract(deps.store.db, id);
    if (row?.status !== 'processing') return { type: 'done' };
    const request = row.request as ExtractRequest;
    // The end, the model call's charge and count and the pages' drop: one commit, so a
    // crash before it asks the model again after a takeover without having charged the call.
    const finish = (
      end: Parameters<typeof endExtract>[2],
      model: { charged: number; settle(ledger: Ledger): Promise<void> } | null = null,
    ) =>
      deps.store.transact(async (trx) => {
        if (model) {
          await model.settle({ db: trx, dialect: deps.store.dialect, transact: inThis(trx) });
          await addExtractCredits(trx, id, model.charged);
        }
        await endExtract(trx, id, end);
        await dropExtractPages(trx, id);
      });
    try {
      const { model, ...end } = await runExtract(deps, row, request, signal);
      await finish(end, model);
    } catch (error) {
      if (signal.aborted || isDatabaseUnavailable(error)) throw error;
      const reason = isAppError(error) ? error.message : 'An unexpected error occurred.';
      await finish({ status: 'failed', error: reason });
    }
    return { type: 'done' };
  };
}

/**
 * The extract's pages: the list a previous holder wrote, or the targets (each `/*` site
 * through a map, charged as one) cut to EXTRACT_MAX_PAGES, written once with the maps'
 * credits, so that a job taken over after a crash neither maps nor counts them again.
 */
async function pagesOf(
  deps: ExtractDeps,
  row: ExtractRow,
  request: ExtractRequest,
  signal: AbortSignal,
): Promise<ExtractPage[]> {
  const listed = await extractPagesOf(deps.store.db, row.id);
  if (listed.length > 0) return listed;
  const urls: string[] = [];
  let mapCredits = 0;
  // Each map's charge commits with the page list, so a crash before it maps again uncharged.
  const mapCharges: ((trx: Kysely<Database>) => Promise<void>)[] = [];
  for (const target of request.targets) {
    if (urls.length >= deps.maxPages) break;
    if (!target.site) {
      urls.push(target.url);
      continue;
    }
    const found = await deps.map.mapDeferred(
      { id: row.accountId, concurrencyLimit: request.concurrencyLimit },
      {
        url: target.url,
        search: null,
        limit: deps.maxPages,
        includeSubdomains: request.includeSubdomains,
        ignoreQueryParameters: true,
        sitemap: 'include',
        filterByPath: true,
        timeoutMs: null,
        languages: [],
      },
      newId(),
      signal,
    );
    mapCredits += found.creditsUsed;
    mapCharges.push(found.settle);
    urls.push(target.url, ...found.links.map((link) => link.url));
  }
  const pages = [...new Set(urls)].slice(0, deps.maxPages);
  await deps.store.transact(async (trx) => {
    for (const charge of mapCharges) await charge(trx);
    await listExtractPages(trx, row.id, pages);
    await addExtractCredits(trx, row.id, mapCredits);
  });
  return extractPagesOf(deps.store.db, row.id);
}

const BUSY = new Set(['TOO_MANY_CONCURRENT', 'NODE_SATURATED']);

/**
 * Reads one page as a Firecrawl scrape of its own. Its end (Markdown or error), its charge
 * (or refund) with its request record, and the extract's count of credits are one commit:
 * a crash before it leaves the page to be read again by the next holder, its reservation
 * refunded by the reaper; after it, the page is read and charged exactly once.
 */
async function scrapePage(
  deps: ExtractDeps,
  row: ExtractRow,
  request: ExtractRequest,
  page: ExtractPage,
  signal: AbortSignal,
): Promise<ExtractPage> {
  const { store } = deps;
  const ended = (end: PageEnd): ExtractPage => ({ ...page, markdown: null, error: null, ...end });
  const account = { id: row.accountId, concurrencyLimit: request.concurrencyLimit };
  for (let attempt = 1; ; attempt++) {
    let plan: ScrapePlan;
    let outcome: Outcome;
    try {
      const scrape = firecrawlScrapeOf(page.url, request.scrapeOptions, request.version);
      plan = await deps.scraper.prepareOptions(account, scrape.options);
      // Left unsettled: settled below, in the page's own commit.
      ({ outcome } = await deps.scraper.execute(plan, { signal, beforeSettle: async () => null }));
    } catch (error) {
      if (signal.aborted || isDatabaseUnavailable(error) || !isAppError(error)) throw error;
      // The extract cannot pay for its pages: it fails, as Firecrawl's does.
      if (error.code === 'INSUFFICIENT_CREDITS') throw error;
      // Refused before anything was reserved.
      const end: PageEnd = { state: 'failed', error: error.message };
      await endExtractPage(store.db, row.id, page.position, end);
      return ended(end);
    }
    const end = signal.aborted ? null : pageEndOf(outcome, attempt);
    await store.transact(async (trx) => {
      if (end) await endExtractPage(trx, row.id, page.position, end);
      const ledger = { db: trx, dialect: store.dialect, transact: inThis(trx) };
      const { charged } = await deps.scraper.settle(plan, outcome, true, ledger);
      if (charged > 0) await addExtractCredits(trx, row.id, charged);
    });
    if (end) return ended(end);
    if (signal.aborted) throw signal.reason;
    await pause(ADMISSION_RETRY_MS, signal);
  }
}

type PageEnd = { state: 'done'; markdown: string } | { state: 'failed'; error: string };

/** null: refused for concurrency, to be tried again. */
function pageEndOf(outcome: Outcome, attempt: number): PageEnd | null {
  if (outcome.ok) {
    return { state: 'done', markdown: outcome.result.document?.markdown ?? '' };
  }
  if (BUSY.has(outcome.error.code) && attempt < ADMISSION_TRIES) return null;
  return { state: 'failed', error: outcome.error.message };
}

/** A ledger whose units run in `trx`, so a settle joins the caller's commit. */
const inThis =
  (trx: Kysely<Database>) =>
  <T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
    work(trx);

async function runExtract(
  deps: ExtractDeps,
  row: ExtractRow,
  request: ExtractRequest,
  signal: AbortSignal,
): Promise<{
  status: 'completed';
  data: unknown;
  sources: string[];
  /** The answered call, charged by `finish` in the extract's end commit. */
  model: { charged: number; settle(ledger: Ledger): Promise<void> };
}> {
  const models = deps.models;
  if (!models) throw appError('MODEL_NOT_CONFIGURED', 'The extract endpoint');
  const pages: { url: string; markdown: string }[] = [];
  let firstFailure: string | null = null;
  for (let page of await pagesOf(deps, row, request, signal)) {
    if (page.state === 'pending') page = await scrapePage(deps, row, request, page, signal);
    // A page that cannot be read is left out, as Firecrawl leaves it; all of them: failed.
    if (page.state === 'done') pages.push({ url: page.url, markdown: page.markdown ?? '' });
    else firstFailure ??= page.error;
  }
  if (pages.length === 0) {
    throw appError(
      'BAD_REQUEST',
      `No page of the extract could be scraped: ${firstFailure ?? 'no page was found'}`,
    );
  }
  const answer = await models.runDeferred(
    { accountId: row.accountId, url: pages[0]?.url ?? '', kind: 'extract', source: 'firecrawl' },
    (model) =>
      extractJson(
        model,
        pages,
        {
          schema: request.schema,
          prompt: request.prompt,
          systemPrompt: request.systemPrompt,
        },
        signal,
      ),
  );
  return {
    status: 'completed',
    data: answer.value,
    sources: pages.map((page) => page.url),
    model: answer,
  };
}
