/**
 * The frontier as a crawl's lanes use it (batches/lane-job.ts calls these for a crawl):
 *
 * - take: the next queued page whose host may start one (store/crawls.ts takeCrawlPage:
 *   per-host concurrency and delay across every crawl and node)
 * - check: robots.txt (robots-rules.ts), unless the crawl opted out (operator's setting)
 * - throttled: a 429 or 503 answer is not kept; the page goes back to the queue and its host
 *   waits, the wait doubling from 1 s to 60 s while the host keeps refusing (3 times a page;
 *   then its answer is the page's result)
 * - grow: in the page's ending transaction, its links (normalised, crawl-url.ts; let in by
 *   the crawl's options, crawl-options.ts) join the frontier, at most `limit` pages in all;
 *   the result's bytes count against the account's bound, and past it the crawl fails
 */
import type { Kysely } from 'kysely';
import type { Batch } from '../../store/batches.js';
import {
  addStoredBytes,
  addToFrontier,
  type FrontierUrl,
  getCrawl,
  hostBackoff,
  hostRecovered,
  type RunInTransaction,
  requeuePage,
  slowHostDown,
  takeCrawlPage,
} from '../../store/crawls.js';
import type { Dialect } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import type { LaneFrontier } from '../batches/lane-job.js';
import type { StoredPage } from '../batches/page-result.js';
import { type CrawlOptions, crawlScopeOf } from './crawl-options.js';
import { normaliseCrawlUrl } from './crawl-url.js';
import type { RobotsRules } from './robots-rules.js';

export interface CrawlSettings {
  /** CRAWL_HOST_CONCURRENCY: pages of one host running at once, all crawls and nodes. */
  hostConcurrency: number;
  /** CRAWL_HOST_DELAY_MS: least time between two starts on one host. */
  hostDelayMs: number;
  /** CRAWL_MAX_STORED_BYTES: results one account's live crawls may keep. */
  maxStoredBytes: number;
}

/** Links of one page considered at most (a page of a million links should not stall us). */
export const MAX_LINKS_PER_PAGE = 5_000;
/** Times a page is retried after a 429 or 503 before that answer is its result. */
export const THROTTLE_RETRIES = 3;
const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
const THROTTLE_STATUSES = new Set([429, 503]);

export function storageLimitText(bytes: number): string {
  return `Storage limit reached: this account's crawls keep at most ${bytes} bytes of results; the crawl stopped`;
}

interface KnownCrawl {
  options: CrawlOptions;
  admits: ReturnType<typeof crawlScopeOf>;
}

export function createCrawlFrontier(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  robots: RobotsRules;
  settings: CrawlSettings;
  /** Where taking a page commits: a lost take (power loss) only puts the page back. */
  relaxed?: RunInTransaction;
}): LaneFrontier {
  const { db, settings } = deps;
  // A crawl's options never change: parsed once per node (a few hundred crawls at most live).
  const known = new Map<string, KnownCrawl>();
  // `via`: the transaction a caller is in (inside one, nothing may use `db` itself).
  const crawlOf = async (batch: Batch, via: Kysely<Database> = db): Promise<KnownCrawl> => {
    const hit = known.get(batch.id);
    if (hit) return hit;
    const row = await getCrawl(via, batch.id);
    if (!row) throw new Error(`crawl ${batch.id} has no crawls row`);
    const options = JSON.parse(row.options) as CrawlOptions;
    const entry = { options, admits: crawlScopeOf(row.url, options) };
    if (known.size > 1000) known.clear();
    known.set(batch.id, entry);
    return entry;
  };

  return {
    async take(batch, lane) {
      const { options } = await crawlOf(batch);
      return takeCrawlPage(
        db,
        deps.dialect,
        batch.id,
        lane,
        {
          hostConcurrency: settings.hostConcurrency,
          delayMs: (host) =>
            Math.max(
              options.delayMs,
              settings.hostDelayMs,
              options.ignoreRobotsTxt ? 0 : deps.robots.crawlDelayMs(host),
            ),
        },
        deps.relaxed,
      );
    },

    async check(batch, page) {
      const { options } = await crawlOf(batch);
      if (options.ignoreRobotsTxt || (await deps.robots.allowed(page.url))) return null;
      return {
        type: 'end',
        state: 'blocked',
        errorCode: null,
        error: 'Blocked by robots.txt',
      };
    },

    throttled(outcome, page) {
      return (
        outcome.ok &&
        THROTTLE_STATUSES.has(outcome.result.targetStatus) &&
        page.retries < THROTTLE_RETRIES
      );
    },

    async requeue(trx, page) {
      const host = page.host ?? new URL(page.url).host;
      const backoff = Math.min(
        MAX_BACKOFF_MS,
        Math.max(MIN_BACKOFF_MS, (await hostBackoff(trx, host)) * 2),
      );
      const until = Date.now() + backoff;
      await slowHostDown(trx, host, backoff, until);
      await requeuePage(trx, page.id, until);
    },

    async grow(trx, batch, page) {
      if (page.result === null) return { added: 0 };
      const crawl = await crawlOf(batch, trx);
      const stored = JSON.parse(page.result) as StoredPage;
      if (page.host) await hostRecovered(trx, page.host);
      const bytes = await addStoredBytes(trx, batch.id, batch.accountId, page.result.length);
      if (bytes > settings.maxStoredBytes) {
        return { added: 0, stop: storageLimitText(settings.maxStoredBytes) };
      }
      if (!stored.ok || crawl.options.sitemap === 'only') return { added: 0 };
      const depth = page.depth + 1;
      const found: FrontierUrl[] = [];
      for (const link of (stored.discovered ?? []).slice(0, MAX_LINKS_PER_PAGE)) {
        const url = normaliseCrawlUrl(link, stored.finalUrl, crawl.options.ignoreQueryParameters);
        if (!url || !crawl.admits(new URL(url.url), depth)) continue;
        found.push({ url: url.url, normUrl: url.key, host: url.host, depth });
      }
      const added = await addToFrontier(trx, batch.id, found, crawl.options.limit);
      return { added };
    },
  };
}
