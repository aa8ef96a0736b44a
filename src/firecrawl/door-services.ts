/**
 * What the Firecrawl door keeps beyond a scrape: the per-account result cache (`maxAge`,
 * `storeInCache`) and the screenshots it links to. Free of HTTP; the composition root builds
 * it and purges both periodically.
 */
import { createHash } from 'node:crypto';
import { charge } from '../billing/credits.js';
import type { ScrapeOptions, ScrapeResult, UsedResources } from '../scrape/types.js';
import { isDatabaseUnavailable } from '../store/database-errors.js';
import type { Store } from '../store/db.js';
import { purgeCachedPages, readCachedPage, storeCachedPage } from '../store/page-cache.js';
import { purgePageFiles, readPageFile, savePageFile } from '../store/page-files.js';
import type { RunRecord } from '../store/run-records.js';
import type { ScreenshotLinks } from './document.js';

export interface CachedResult {
  result: ScrapeResult;
  cachedAt: number;
}

export interface FirecrawlServices {
  /** A result of the same options no older than `maxAgeMs`, or null. */
  cached(accountId: string, options: ScrapeOptions, maxAgeMs: number): Promise<CachedResult | null>;
  /**
   * Charges a cache hit (PRICE_CACHE_HIT) under `requestId` and writes its request record
   * (`record`, given the charge) with it; 402 when the balance is short.
   */
  chargeHit(
    accountId: string,
    requestId: string,
    record: (charged: number) => RunRecord,
  ): Promise<{ charged: number; balance: number }>;
  remember(accountId: string, options: ScrapeOptions, result: ScrapeResult): Promise<void>;
  /** Links under `baseUrl` for the account's screenshots. */
  screenshotLinks(accountId: string, baseUrl: string): ScreenshotLinks;
  screenshot(id: string): Promise<{ contentType: string; body: Buffer } | null>;
  /** Where links point when PUBLIC_URL is set; null: the address a request came to. */
  readonly publicUrl: string | null;
  /** Deletes expired screenshots and cache entries. */
  purge(): Promise<void>;
}

export interface FirecrawlSettings {
  publicUrl: string | null;
  screenshotRetentionMs: number;
  cacheRetentionMs: number;
  cacheHitPrice: number;
}

/** The path a screenshot is served at, under the service's base URL. */
export const screenshotPath = (id: string) => `/v2/screenshots/${id}`;

/**
 * The cache key: everything that shapes the answer. The budget does not (a slower or faster
 * run of the same page is the same page), nor does a webhook.
 */
export function cacheKeyOf(options: ScrapeOptions): string {
  const { timeoutMs: _budget, webhookUrl: _webhook, ...shaping } = options;
  return createHash('sha256').update(canonicalJson(shaping)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function createFirecrawlServices(
  store: Store,
  settings: FirecrawlSettings,
): FirecrawlServices {
  return {
    publicUrl: settings.publicUrl,
    async cached(accountId, options, maxAgeMs) {
      if (maxAgeMs <= 0) return null;
      const key = cacheKeyOf(options);
      const row = await readCachedPage(store.db, accountId, key, Date.now() - maxAgeMs);
      if (!row) return null;
      const used = row.used ? (JSON.parse(row.used) as UsedResources) : undefined;
      return {
        cachedAt: row.createdAt,
        result: {
          contentType: 'application/json; charset=utf-8',
          body: Buffer.from(row.document, 'utf8'),
          finalUrl: row.finalUrl,
          targetStatus: row.targetStatus,
          ...(used ? { used } : {}),
        },
      };
    },
    async chargeHit(accountId, requestId, record) {
      const price = settings.cacheHitPrice;
      const balance = await charge(store, { accountId, requestId }, price, record(price));
      return { charged: price, balance };
    },
    async remember(accountId, options, result) {
      const page = {
        document: result.document ? JSON.stringify(result.document) : result.body.toString('utf8'),
        finalUrl: result.finalUrl,
        targetStatus: result.targetStatus,
        used: result.used ? JSON.stringify(result.used) : null,
        createdAt: Date.now(),
      };
      // In the group commit with the settles of the same turn, and without an fsync of its
      // own: a cache entry lost to a power cut costs one scrape again, while an fsync per
      // answer halved the door's throughput on the embedded engine (BENCHMARKS.md).
      try {
        await store.transact((trx) => storeCachedPage(trx, accountId, cacheKeyOf(options), page), {
          durable: false,
        });
      } catch (error) {
        // The scrape is settled (charged) already: an answer lost to a database that went away
        // since would be a charge without a page. The cache just misses it.
        if (!isDatabaseUnavailable(error)) throw error;
      }
    },
    screenshotLinks(accountId, baseUrl) {
      return {
        async link(image) {
          const id = await savePageFile(store.db, {
            accountId,
            contentType: image.contentType,
            body: Buffer.from(image.base64, 'base64'),
            keepMs: settings.screenshotRetentionMs,
          });
          return `${baseUrl}${screenshotPath(id)}`;
        },
      };
    },
    screenshot: (id) => readPageFile(store.db, id),
    async purge() {
      await purgePageFiles(store.db);
      await purgeCachedPages(store.db, Date.now() - settings.cacheRetentionMs);
    },
  };
}
