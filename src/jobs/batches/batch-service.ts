/**
 * Batch scrapes as the Firecrawl door offers them: start one (its pages, lanes and `started`
 * event stored in one transaction, so an accepted batch always runs), read its status and
 * results page by page, cancel it, list its failed pages, purge expired ones. Free of HTTP:
 * the door turns these answers into Firecrawl's envelopes.
 */
import type { Account } from '../../accounts/account-store.js';
import { getAccount } from '../../accounts/account-store.js';
import { appError, type ErrorCode } from '../../errors.js';
import type { FirecrawlDocument } from '../../firecrawl/document.js';
import { checkFormats } from '../../firecrawl/firecrawl-scrape.js';
import {
  type FirecrawlScrapeOptions,
  type FirecrawlVersion,
  firecrawlScrapeOf,
} from '../../firecrawl/scrape-request.js';
import type { ModelCalls } from '../../models/model-calls.js';
import { parseHttpUrlParam } from '../../scrape/params/http-url.js';
import {
  type BatchStatus,
  getBatch,
  insertBatch,
  purgeBatches,
  stopBatch,
} from '../../store/batches.js';
import { readFailedPages } from '../../store/batches-pages.js';
import { purgeCrawls } from '../../store/crawls.js';
import type { Store } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { JobQueue } from '../../store/job-queue.js';
import { batchWebhookOf, queueBatchEvent, type WebhookInput } from './batch-events.js';
import { batchWebhookOfRow } from './batch-options.js';
import { readResults } from './batch-results.js';
import { openBatchWatch, type WatchEvent, type WatchOptions } from './batch-watch.js';
import { LANE_JOB, LANE_MAX_ATTEMPTS, type LanePayload, laneJobId } from './job-kinds.js';
import { countFailedPages, firecrawlCounts } from './page-reads.js';

/** Most URLs one batch may hold (Firecrawl documents no limit; 1000 keeps a body near 2 MB). */
export const MAX_BATCH_URLS = 1000;
export interface StartBatchRequest {
  account: Pick<Account, 'id' | 'concurrencyLimit'>;
  version: FirecrawlVersion;
  urls: string[];
  /** The scrape options as sent (translated per page). */
  options: FirecrawlScrapeOptions;
  webhook?: WebhookInput;
  /** Pages of this batch running at once; default the account's concurrency limit. */
  maxConcurrency?: number;
  /** List invalid URLs instead of refusing the batch. Default: v2 true, v1 false. */
  ignoreInvalidURLs?: boolean;
  /** Where the caller reached the service, for links in results. */
  baseUrl: string;
}

export interface StartedBatch {
  id: string;
  invalidURLs?: string[];
}

export interface BatchAnswer {
  status: BatchStatus;
  /**
   * Pages scraped, and pages of the batch less those that failed: Firecrawl drops a failed
   * page from both (it is only under errors), so `completed` counts the documents in `data`.
   */
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: number;
  /** Why a failed batch or crawl stopped (credits or storage ran out). */
  error: string | null;
  data: FirecrawlDocument[];
  /** Where the next answer starts, when results are left beyond this one. */
  nextSkip: number | null;
}

export interface BatchPageError {
  id: string;
  timestamp?: string;
  url: string;
  code?: ErrorCode;
  error: string;
}

export interface BatchService {
  start(request: StartBatchRequest): Promise<StartedBatch>;
  /** Null when the batch is unknown, expired or another account's. */
  status(
    accountId: string,
    id: string,
    page: { skip?: number; limit?: number },
  ): Promise<BatchAnswer | null>;
  cancel(accountId: string, id: string): Promise<BatchStatus | null>;
  errors(accountId: string, id: string): Promise<BatchPageError[] | null>;
  /** Its progress as it happens (the WebSocket watch); null as for `status`. */
  watch(
    accountId: string,
    id: string,
    options: WatchOptions,
  ): Promise<AsyncGenerator<WatchEvent> | null>;
  /** Deletes batches whose results expired (their screenshots expire with them). */
  purge(): Promise<number>;
}

export interface BatchServiceDeps {
  store: Pick<Store, 'db'>;
  jobs: JobQueue;
  /** The SSRF guard's verdict on an address (the planner's assertAllowed). */
  assertAllowed(url: string): Promise<void>;
  /** BATCH_RETENTION_MS: how long results are kept. */
  retentionMs: number;
  onQueued?(kind: 'lane' | 'event'): void;
  /**
   * The operator's model: whether the json and summary formats can be made (as /scrape
   * answers: MODEL_NOT_CONFIGURED before anything is charged). Default: none.
   */
  models?: ModelCalls | null;
}

function splitUrls(urls: string[], ignoreInvalid: boolean) {
  const valid: string[] = [];
  const invalid: string[] = [];
  urls.forEach((url, i) => {
    try {
      valid.push(parseHttpUrlParam('url', url));
    } catch {
      if (!ignoreInvalid) throw appError('BAD_REQUEST', `urls[${i}] is not a valid URL: ${url}`);
      invalid.push(url);
    }
  });
  return { valid, invalid };
}

export function createBatchService(deps: BatchServiceDeps): BatchService {
  const { db } = deps.store;

  const owned = async (accountId: string, id: string) => {
    const batch = await getBatch(db, id);
    if (!batch || batch.accountId !== accountId || batch.expiresAt <= Date.now()) return null;
    return batch;
  };

  return {
    async start(request) {
      const ignoreInvalid = request.ignoreInvalidURLs ?? request.version === 'v2';
      const { valid, invalid } = splitUrls(request.urls, ignoreInvalid);
      // The options are the same for every page: translating one checks them all (400s).
      checkFormats(
        firecrawlScrapeOf(
          valid[0] ?? 'https://example.com/',
          request.options,
          request.version,
          'offered',
        ),
        deps.models ?? null,
      );
      const webhook = request.webhook === undefined ? null : batchWebhookOf(request.webhook);
      if (webhook) {
        webhook.url = parseHttpUrlParam('webhook.url', webhook.url);
        await deps.assertAllowed(webhook.url);
      }
      const account = await getAccount(db, request.account.id);
      // A start needs one credit; each page then reserves its own price.
      if (!account || account.credits <= 0) {
        throw appError('INSUFFICIENT_CREDITS', 1, account?.credits ?? 0);
      }

      const id = newId();
      const now = Date.now();
      const lanes = Math.max(
        1,
        Math.min(request.maxConcurrency ?? request.account.concurrencyLimit, valid.length),
      );
      const target = { batchId: id, accountId: account.id, webhook };
      let events = 0;
      await inTransaction(db, async (trx) => {
        await insertBatch(
          trx,
          {
            id,
            accountId: account.id,
            version: request.version,
            status: valid.length > 0 ? 'scraping' : 'completed',
            options: JSON.stringify(request.options),
            webhook: webhook ? JSON.stringify(webhook) : null,
            baseUrl: request.baseUrl,
            lanes,
            total: valid.length,
            createdAt: now,
            expiresAt: now + deps.retentionMs,
          },
          valid.map((url) => ({ id: newId(), url })),
        );
        const queue = deps.jobs.within(trx);
        for (let lane = 0; lane < lanes && valid.length > 0; lane++) {
          const payload: LanePayload = { batchId: id, lane, step: 0 };
          await queue.enqueue(LANE_JOB, payload, {
            id: laneJobId(id, lane, 0),
            maxAttempts: LANE_MAX_ATTEMPTS,
          });
        }
        const started = { key: 'started', event: 'started', success: true, data: [] } as const;
        if (await queueBatchEvent(trx, deps.jobs, target, started)) events++;
        if (valid.length === 0) {
          const completed = {
            key: 'completed',
            event: 'completed',
            success: true,
            data: [],
          } as const;
          if (await queueBatchEvent(trx, deps.jobs, target, completed)) events++;
        }
      });
      if (valid.length > 0) deps.onQueued?.('lane');
      if (events > 0) deps.onQueued?.('event');
      return { id, ...(ignoreInvalid ? { invalidURLs: invalid } : {}) };
    },

    async status(accountId, id, page) {
      const batch = await owned(accountId, id);
      if (!batch) return null;
      const [results, failed] = await Promise.all([
        readResults(db, id, page),
        countFailedPages(db, id),
      ]);
      return { ...firecrawlCounts(batch, failed), ...results };
    },

    async cancel(accountId, id) {
      const batch = await owned(accountId, id);
      if (!batch) return null;
      let events = 0;
      const cancelled = await inTransaction(db, async (trx) => {
        if (!(await stopBatch(trx, id, 'cancelled', null))) return false;
        const target = {
          batchId: id,
          accountId,
          kind: batch.kind,
          webhook: batchWebhookOfRow(batch),
        };
        // Firecrawl sends `failed` for a cancelled batch too.
        const failed = {
          key: 'failed',
          event: 'failed',
          success: false,
          data: [],
          error: batch.kind === 'crawl' ? 'Crawl was cancelled' : 'Batch scrape was cancelled',
        } as const;
        if (await queueBatchEvent(trx, deps.jobs, target, failed)) events++;
        return true;
      });
      if (events > 0) deps.onQueued?.('event');
      return cancelled ? 'cancelled' : batch.status;
    },

    async errors(accountId, id) {
      if (!(await owned(accountId, id))) return null;
      const failed = await readFailedPages(db, id);
      return failed.map((page) => ({
        id: page.id,
        ...(page.endedAt === null ? {} : { timestamp: new Date(page.endedAt).toISOString() }),
        url: page.url,
        ...(page.errorCode ? { code: page.errorCode as ErrorCode } : {}),
        error: page.error ?? 'failed',
      }));
    },

    watch(accountId, id, options) {
      return openBatchWatch(db, accountId, id, options);
    },

    async purge() {
      const purged = await purgeBatches(db);
      await purgeCrawls(db);
      return purged;
    },
  };
}
