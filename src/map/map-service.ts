/**
 * A map, as every door runs it: the address check (refused before anything is charged), the
 * reservation (402 before any fetch), admission like any scrape (the account's and the
 * node's concurrency: 429/503, refunded), the discovery (discover.ts) through the service's
 * one HTTP client within its time, then the
 * charge, or the refund when the map failed (the site never answered, the caller's timeout
 * passed, the caller went away).
 *
 * Price: what a plain fetch costs (PRICE_FETCH x the datacenter multiplier, 1 credit by
 * default: Firecrawl's price of a map), whatever the number of documents read; the
 * composition root passes it in.
 */
import type { Kysely } from 'kysely';
import type { Account } from '../accounts/account-store.js';
import { refund, reserve, SETTLE_GRACE_MS, settle, shortOfCredits } from '../billing/credits.js';
import { LateRefunds } from '../billing/late-refunds.js';
import { appError, isAppError } from '../errors.js';
import type { Admission, Release } from '../scrape/admission/admission.js';
import type { DocumentFetcher, HttpClient } from '../scrape/net/http-client.js';
import { databaseUnavailable, isDatabaseUnavailable } from '../store/database-errors.js';
import type { Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import { type DiscoveryLimits, discoverLinks } from './discover.js';
import type { MapRequest, MapResult } from './types.js';

/** How long a map without the caller's `timeout` reads; then it answers what it found. */
export const DEFAULT_MAP_BUDGET_MS = 30_000;
/**
 * The longest a caller's `timeout` is honoured. A map's reservation is dead (the reaper
 * refunds it) only after this budget and the settle's grace.
 */
export const MAX_MAP_TIMEOUT_MS = 300_000;

export interface MapServiceOptions {
  store: Pick<Store, 'db' | 'dialect' | 'transact'>;
  /** The service's one HTTP client (its address guard checks every document's hop). */
  http: Pick<HttpClient, 'checkAddress' | 'get'>;
  /** The scrapes' admission: a map holds one of the account's and the node's slots. */
  admission: Pick<Admission, 'admit'>;
  /** Credits a map costs. */
  price: number;
  /** MAX_BODY_BYTES: the largest document read (page, robots.txt, one sitemap). */
  maxDocumentBytes: number;
  /** Default DEFAULT_MAP_BUDGET_MS. */
  budgetMs?: number;
  /** Overrides of the discovery's bounds (tests). */
  limits?: Partial<DiscoveryLimits>;
  /** This node's stable name, stamped on its reservations (ScrapeUseCaseDeps.nodeName). */
  nodeName?: () => string | null;
  /** Where refunds wait while the database is unreachable. Default: one of its own. */
  lateRefunds?: LateRefunds;
}

export interface MapService {
  map(
    account: Pick<Account, 'id' | 'concurrencyLimit'>,
    request: MapRequest,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<MapResult>;
  /**
   * As `map`, but a map that found its links is charged by the caller, in the commit that
   * keeps them (an extract's page list): a crash before it leaves the reservation to the
   * reaper, so the map run again after a takeover is the only one charged. A failed map is
   * refunded at once.
   */
  mapDeferred(
    account: Pick<Account, 'id' | 'concurrencyLimit'>,
    request: MapRequest,
    requestId: string,
    signal?: AbortSignal,
  ): Promise<MapResult & { settle(trx: Kysely<Database>): Promise<void> }>;
  close(): Promise<void>;
}

export function createMapService(options: MapServiceOptions): MapService {
  const { store, http, price } = options;
  const lateRefunds = options.lateRefunds ?? new LateRefunds();
  const fetcher: DocumentFetcher = {
    get: (url, request) => http.get(url, { ...request, maxBytes: options.maxDocumentBytes }),
  };
  const limits: DiscoveryLimits = {
    maxDocuments: 50,
    maxDepth: 3,
    maxTotalBytes: 100 * 1024 * 1024,
    maxDocumentBytes: options.maxDocumentBytes,
    concurrency: 4,
    // Twice Firecrawl's largest limit: enough for `search` to rank a big site.
    maxCandidates: 200_000,
    ...options.limits,
  };
  const budgetMs = options.budgetMs ?? DEFAULT_MAP_BUDGET_MS;

  async function mapDeferred(
    account: Pick<Account, 'id' | 'concurrencyLimit'>,
    request: MapRequest,
    requestId: string,
    callerSignal?: AbortSignal,
  ): Promise<MapResult & { settle(trx: Kysely<Database>): Promise<void> }> {
    await http.checkAddress(request.url);
    const strict = request.timeoutMs !== null;
    const ms = strict ? Math.min(request.timeoutMs as number, MAX_MAP_TIMEOUT_MS) : budgetMs;
    const holder = options.nodeName?.() ?? null;
    const hold = holder ? { holder, deadlineAt: Date.now() + ms + SETTLE_GRACE_MS } : null;
    const credits = { accountId: account.id, requestId };
    const balance = await reserve(store, credits, price, hold);
    if (balance === null) throw await shortOfCredits(store.db, account.id, price);

    const deadline = AbortSignal.timeout(ms);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    const failure = (error?: unknown) => {
      if (callerSignal?.aborted) {
        const reason: unknown = callerSignal.reason;
        return isAppError(reason) ? reason : appError('CLIENT_CLOSED');
      }
      if (deadline.aborted && (strict || error !== undefined)) return appError('TIMED_OUT', ms);
      return error;
    };
    let release: Release | null = null;
    try {
      release = await options.admission.admit(account.id, account.concurrencyLimit, ms);
      const links = await discoverLinks(request, { fetcher, limits }, signal);
      const late = failure();
      if (late) throw late;
      return {
        links,
        creditsUsed: price,
        settle: async (trx) => {
          await settle(trx, credits, price);
        },
      };
    } catch (error) {
      const giveBack = () => store.transact((trx) => refund(trx, credits, price));
      try {
        await giveBack();
      } catch (refundError) {
        if (!isDatabaseUnavailable(refundError)) throw refundError;
        // A 503, never charged: refunded as soon as the database answers again.
        lateRefunds.retry(giveBack);
        throw databaseUnavailable();
      }
      throw failure(error);
    } finally {
      const free = release;
      await free?.().catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
        lateRefunds.retry(free);
      });
    }
  }

  return {
    async map(account, request, requestId, signal) {
      const { settle: charge, ...found } = await mapDeferred(account, request, requestId, signal);
      await store.transact(charge);
      return found;
    },
    mapDeferred,
    close: async () => {
      lateRefunds.close();
    },
  };
}
