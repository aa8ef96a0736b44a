/**
 * The frontier as a crawl's lanes use it (batches/lane-job.ts calls these for a crawl):
 *
 * - take: the next queued page whose host may start one (take-page.ts: per-host
 *   concurrency and delay across every crawl and node, decided in crawl-decisions.ts)
 * - check: robots.txt (robots-rules.ts), unless the crawl opted out (operator's setting)
 * - throttled: a 429 or 503 answer is not kept; the page goes back to the queue and its host
 *   waits, on every node: the answer's Retry-After (seconds or an HTTP date, at most
 *   MAX_RETRY_AFTER_MS), else a wait doubling from 1 s to 60 s while the host keeps refusing
 *   (3 times a page; then its answer is the page's result)
 * - redirects / land: robots.txt is checked on each redirect hop before an engine requests
 *   it (the browser pauses a page's document hops for it), and on where a render landed
 *   (a script or a meta refresh moves a page without an HTTP redirect); disallowed: the
 *   answer is not kept nor charged, the page is `blocked`. A page a redirect took to another
 *   URL makes that URL join the crawl's keys, so the page reached by the redirect and by a
 *   link is scraped once (the second to end is `redirected`: not kept, not charged, not a
 *   page of the crawl); the SSRF guard checks every redirect hop in the engines, and every
 *   discovered URL when its page is reserved
 * - grow: in the page's ending transaction, its links (normalised, crawl-url.ts; let in by
 *   the crawl's options, crawl-options.ts) join the frontier, at most `limit` pages in all;
 *   the result's bytes count against the account's bound, and past it the crawl fails
 */
import type { Kysely } from 'kysely';
import type { Batch } from '../../store/batches.js';
import type { BatchPage } from '../../store/batches-pages.js';
import {
  addStoredBytes,
  addToFrontier,
  type FrontierUrl,
  getCrawl,
  hostBackoff,
  hostRecovered,
  requeuePage,
  slowHostDown,
  stateOfKey,
} from '../../store/crawls.js';
import type { Dialect } from '../../store/dialect.js';
import type { RunInTransaction } from '../../store/in-transaction.js';
import type { Database } from '../../store/schema.js';
import type { LaneFrontier } from '../batches/lane-job.js';
import type { StoredPage } from '../batches/page-result.js';
import type { PageEnding, PageRedirects } from '../batches/page-run.js';
import {
  hostDelayMs,
  landedOnAnotherPage,
  nextBackoffMs,
  throttledUntil,
} from './crawl-decisions.js';
import { type CrawlOptions, crawlScopeOf } from './crawl-options.js';
import { normaliseCrawlUrl } from './crawl-url.js';
import { landRedirect } from './land-redirect.js';
import type { RobotsRules } from './robots-rules.js';
import { takeCrawlPage } from './take-page.js';

export interface CrawlSettings {
  /** CRAWL_HOST_CONCURRENCY: pages of one host running at once, all crawls and nodes. */
  hostConcurrency: number;
  /** CRAWL_HOST_DELAY_MS: least time between two starts on one host. */
  hostDelayMs: number;
  /** CRAWL_BACKOFF_MS: a refusing host's first backoff when it sends no Retry-After. */
  backoffMs: number;
  /** CRAWL_MAX_STORED_BYTES: results one account's live crawls may keep. */
  maxStoredBytes: number;
}

/** Links of one page considered at most (a page of a million links should not stall us). */
export const MAX_LINKS_PER_PAGE = 5_000;
/** Times a page is retried after a 429 or 503 before that answer is its result. */
export const THROTTLE_RETRIES = 3;
const THROTTLE_STATUSES = new Set([429, 503]);
/** The longest Retry-After a crawl honours (a host asking for a day waits this long). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Retry-After (RFC 9110 10.2.3) in ms from `now`: delay-seconds or an HTTP-date, bounded by
 * MAX_RETRY_AFTER_MS; null when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  // An HTTP date starts with the day's name (IMF-fixdate, RFC 850, asctime).
  else if (/^[A-Za-z]{3}/.test(text)) ms = Date.parse(text) - now;
  else return null;
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

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

  /** Where a redirect took the page (normalised), or null when it stayed on its URL. */
  const landingOf = (crawl: KnownCrawl, page: BatchPage, finalUrl: string) => {
    const ignore = crawl.options.ignoreQueryParameters;
    const own = normaliseCrawlUrl(page.url, undefined, ignore);
    const there = normaliseCrawlUrl(finalUrl, undefined, ignore);
    return there && own && there.key !== own.key ? there : null;
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
            hostDelayMs(
              options.delayMs,
              settings.hostDelayMs,
              options.ignoreRobotsTxt ? 0 : deps.robots.crawlDelayMs(host),
              options.ignoreRobotsTxt,
            ),
        },
        deps.relaxed,
      );
    },

    async check(batch, page, signal) {
      const { options } = await crawlOf(batch);
      if (options.ignoreRobotsTxt || (await deps.robots.allowed(page.url, signal))) return null;
      return {
        type: 'end',
        state: 'blocked',
        errorCode: null,
        error: 'Blocked by robots.txt',
      };
    },

    redirects(batch, page, signal): PageRedirects {
      const robotsBlocked = (url: string): PageEnding => ({
        type: 'end',
        state: 'blocked',
        errorCode: null,
        error: `Blocked by robots.txt (redirected to ${url})`,
      });
      let refused: string | null = null;
      return {
        async follow(url) {
          const { options } = await crawlOf(batch);
          if (options.ignoreRobotsTxt || (await deps.robots.allowed(url.href, signal))) {
            return true;
          }
          refused = url.href;
          return false;
        },
        async landed(outcome) {
          if (refused !== null) return robotsBlocked(refused);
          if (!outcome.ok) return null;
          const crawl = await crawlOf(batch);
          const there = landingOf(crawl, page, outcome.result.finalUrl);
          if (!there) return null;
          // A render can also land elsewhere without an HTTP redirect (a script, a meta
          // refresh), which no hop check saw: where it landed is checked too.
          const { ignoreRobotsTxt } = crawl.options;
          if (!ignoreRobotsTxt && !(await deps.robots.allowed(there.url, signal))) {
            return robotsBlocked(there.url);
          }
          if (!landedOnAnotherPage(await stateOfKey(db, batch.id, there.key, page.id))) {
            return null;
          }
          return {
            type: 'end',
            state: 'redirected',
            errorCode: null,
            error: `Redirected to ${there.url}, a page of this crawl already`,
          };
        },
      };
    },

    async land(trx, batch, page) {
      if (page.result === null) return 'keep';
      const stored = JSON.parse(page.result) as StoredPage;
      if (!stored.ok) return 'keep';
      const crawl = await crawlOf(batch, trx);
      const there = landingOf(crawl, page, stored.finalUrl);
      if (!there) return 'keep';
      return landRedirect(trx, batch.id, page.id, {
        url: there.url,
        normUrl: there.key,
        host: there.host,
        depth: page.depth,
      });
    },

    throttled(outcome, page) {
      return (
        outcome.ok &&
        THROTTLE_STATUSES.has(outcome.result.targetStatus) &&
        page.retries < THROTTLE_RETRIES
      );
    },

    async requeue(trx, page, retryAfter) {
      const host = page.host ?? new URL(page.url).host;
      const now = Date.now();
      const backoff = nextBackoffMs(await hostBackoff(trx, host), settings.backoffMs);
      // The host said how long: that, not our guess (the doubling goes on if it says nothing).
      const until = throttledUntil(now, retryAfterMs(retryAfter, now), backoff);
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
