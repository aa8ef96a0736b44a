/**
 * Crawls as the Firecrawl door offers them. A crawl is a batch (jobs/batches/) whose page
 * list grows: starting one checks everything that can be refused (400, 402, the SSRF guard
 * on the start URL), reads the site's sitemaps when asked (robots.txt's `Sitemap:` lines and
 * /sitemap.xml, indexes followed, bounded as a map's are), then stores in one transaction the
 * batch row, the crawl row, the first pages of the frontier (the start URL, then sitemap
 * entries), the lanes and the `started` event, so an accepted crawl always runs. Status,
 * results, cancel and failed pages are the batch service's; robots-blocked URLs are listed
 * here.
 */
import type { Account } from '../../accounts/account-store.js';
import { getAccount } from '../../accounts/account-store.js';
import { appError } from '../../errors.js';
import { checkFormats } from '../../firecrawl/firecrawl-scrape.js';
import {
  type FirecrawlScrapeOptions,
  type FirecrawlVersion,
  firecrawlScrapeOf,
} from '../../firecrawl/scrape-request.js';
import { wellKnownOf } from '../../map/robots-sitemaps.js';
import { crawlSitemaps, type SitemapCrawlLimits } from '../../map/sitemap-crawl.js';
import type { ModelCalls } from '../../models/model-calls.js';
import type { DocumentFetcher } from '../../scrape/net/http-client.js';
import { parseHttpUrlParam } from '../../scrape/params/http-url.js';
import { insertBatch } from '../../store/batches.js';
import {
  activeCrawls,
  addToFrontier,
  type FrontierUrl,
  getCrawl,
  insertCrawl,
  listCrawls,
  readBlocked,
} from '../../store/crawls.js';
import type { Store } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { JobQueue } from '../../store/job-queue.js';
import { batchWebhookOf, queueBatchEvent, type WebhookInput } from '../batches/batch-events.js';
import { LANE_JOB, LANE_MAX_ATTEMPTS, type LanePayload, laneJobId } from '../batches/job-kinds.js';
import {
  type CrawlBody,
  type CrawlOptions,
  crawlOptionsOf,
  crawlScopeOf,
} from './crawl-options.js';
import { normaliseCrawlUrl } from './crawl-url.js';
import type { RobotsRules } from './robots-rules.js';

export interface StartCrawlRequest {
  account: Pick<Account, 'id' | 'concurrencyLimit'>;
  version: FirecrawlVersion;
  url: string;
  crawl: CrawlBody;
  scrapeOptions: FirecrawlScrapeOptions;
  webhook?: WebhookInput;
  /** Where the caller reached the service, for links in results. */
  baseUrl: string;
}

export interface ActiveCrawl {
  id: string;
  url: string;
  version: string;
  options: Record<string, unknown>;
}

export interface CrawlSummary {
  id: string;
  url: string;
  status: string;
  /** Pages ended (scraped or failed) of `total` discovered. */
  completed: number;
  total: number;
  creditsUsed: number;
  error: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface CrawlService {
  start(request: StartCrawlRequest): Promise<{ id: string }>;
  active(accountId: string): Promise<ActiveCrawl[]>;
  /** Null when the crawl is unknown, expired or another account's. */
  robotsBlocked(accountId: string, id: string): Promise<string[] | null>;
  /** The account's crawls, newest first (the dashboard's list). */
  list(accountId: string, limit: number): Promise<CrawlSummary[]>;
}

export interface CrawlServiceDeps {
  store: Pick<Store, 'db'>;
  jobs: JobQueue;
  robots: RobotsRules;
  /** Reads sitemaps (guarded, bounded): the map's fetcher. */
  fetcher: DocumentFetcher;
  assertAllowed(url: string): Promise<void>;
  retentionMs: number;
  /**
   * The operator's model: whether the json and summary formats can be made (as /scrape
   * answers: MODEL_NOT_CONFIGURED before anything is charged). Default: none.
   */
  models?: ModelCalls | null;
  /** CRAWL_MAX_URLS: pages one crawl holds at most (its `limit` is cut to it). */
  maxUrls: number;
  /** CRAWL_ALLOW_IGNORE_ROBOTS: whether a crawl may ask to ignore robots.txt. */
  allowIgnoreRobots: boolean;
  /** How long sitemaps are read when a crawl starts. Default 15 s. */
  sitemapBudgetMs?: number;
  sitemapLimits?: Partial<SitemapCrawlLimits>;
  onQueued?(kind: 'lane' | 'event'): void;
}

const DEFAULT_SITEMAP_BUDGET_MS = 15_000;

export function createCrawlService(deps: CrawlServiceDeps): CrawlService {
  const { db } = deps.store;
  const limits: SitemapCrawlLimits = {
    maxDocuments: 50,
    maxDepth: 3,
    maxTotalBytes: 100 * 1024 * 1024,
    maxDocumentBytes: 10 * 1024 * 1024,
    concurrency: 4,
    ...deps.sitemapLimits,
  };

  /** Sitemap entries the crawl lets in, in the sitemaps' order, at most `limit`. */
  async function sitemapSeeds(url: string, options: CrawlOptions): Promise<FrontierUrl[]> {
    const admits = crawlScopeOf(url, options);
    const signal = AbortSignal.timeout(deps.sitemapBudgetMs ?? DEFAULT_SITEMAP_BUDGET_MS);
    const { robots, sitemap } = wellKnownOf(url);
    const declared = (await deps.robots.sitemaps(url).catch(() => []))
      .map((raw) => URL.parse(raw.trim(), robots)?.href)
      .filter((href): href is string => href !== undefined && /^https?:/.test(href));
    const seeds = declared.includes(sitemap) ? declared : [...declared, sitemap];
    const found: FrontierUrl[] = [];
    const seen = new Set<string>();
    await crawlSitemaps(seeds, {
      fetcher: deps.fetcher,
      signal,
      languages: [],
      limits,
      onAnswer: () => undefined,
      onUrls: (urls) => {
        for (const raw of urls) {
          const entry = normaliseCrawlUrl(raw, undefined, options.ignoreQueryParameters);
          if (!entry || seen.has(entry.key) || !admits(new URL(entry.url), 0)) continue;
          seen.add(entry.key);
          found.push({ url: entry.url, normUrl: entry.key, host: entry.host, depth: 0 });
        }
      },
      enough: () => found.length >= options.limit,
    });
    return found;
  }

  return {
    async start(request) {
      const start = normaliseCrawlUrl(
        parseHttpUrlParam('url', request.url),
        undefined,
        request.crawl.ignoreQueryParameters ?? false,
      );
      if (!start) throw appError('BAD_REQUEST', 'url must be an http(s) URL');
      const options = crawlOptionsOf(request.crawl, deps.maxUrls);
      if (options.ignoreRobotsTxt && !deps.allowIgnoreRobots) {
        throw appError(
          'BAD_REQUEST',
          'ignoreRobotsTxt is not allowed on this server (CRAWL_ALLOW_IGNORE_ROBOTS)',
        );
      }
      // The options are the same for every page: translating one checks them all (400s).
      checkFormats(
        firecrawlScrapeOf(start.url, request.scrapeOptions, request.version, 'offered'),
        deps.models ?? null,
      );
      const webhook = request.webhook === undefined ? null : batchWebhookOf(request.webhook);
      if (webhook) {
        webhook.url = parseHttpUrlParam('webhook.url', webhook.url);
        await deps.assertAllowed(webhook.url);
      }
      await deps.assertAllowed(start.url);
      const account = await getAccount(db, request.account.id);
      // A start needs one credit; each page then reserves its own price.
      if (!account || account.credits <= 0) {
        throw appError('INSUFFICIENT_CREDITS', 1, account?.credits ?? 0);
      }

      const first: FrontierUrl = { url: start.url, normUrl: start.key, host: start.host, depth: 0 };
      const seeds = options.sitemap === 'skip' ? [] : await sitemapSeeds(start.url, options);
      const id = newId();
      const now = Date.now();
      const lanes = Math.max(
        1,
        Math.min(
          options.maxConcurrency ?? request.account.concurrencyLimit,
          request.account.concurrencyLimit,
        ),
      );
      const target = { batchId: id, accountId: account.id, kind: 'crawl' as const, webhook };
      let events = 0;
      await inTransaction(db, async (trx) => {
        await insertBatch(
          trx,
          {
            id,
            accountId: account.id,
            kind: 'crawl',
            version: request.version,
            status: 'scraping',
            options: JSON.stringify(request.scrapeOptions),
            webhook: webhook ? JSON.stringify(webhook) : null,
            baseUrl: request.baseUrl,
            lanes,
            total: 0,
            createdAt: now,
            expiresAt: now + deps.retentionMs,
          },
          [],
        );
        await insertCrawl(trx, {
          id,
          accountId: account.id,
          url: start.url,
          options: JSON.stringify(options),
          createdAt: now,
          expiresAt: now + deps.retentionMs,
        });
        await addToFrontier(trx, id, [first, ...seeds], options.limit);
        const queue = deps.jobs.within(trx);
        for (let lane = 0; lane < lanes; lane++) {
          const payload: LanePayload = { batchId: id, lane, step: 0 };
          await queue.enqueue(LANE_JOB, payload, {
            id: laneJobId(id, lane, 0),
            maxAttempts: LANE_MAX_ATTEMPTS,
          });
        }
        const started = { key: 'started', event: 'started', success: true, data: [] } as const;
        if (await queueBatchEvent(trx, deps.jobs, target, started)) events++;
      });
      deps.onQueued?.('lane');
      if (events > 0) deps.onQueued?.('event');
      return { id };
    },

    async active(accountId) {
      const rows = await activeCrawls(db, accountId);
      return rows.map((row) => ({
        id: row.id,
        url: row.url,
        version: row.version,
        options: JSON.parse(row.options) as Record<string, unknown>,
      }));
    },

    async robotsBlocked(accountId, id) {
      const crawl = await getCrawl(db, id);
      if (!crawl || crawl.accountId !== accountId || crawl.expiresAt <= Date.now()) return null;
      return readBlocked(db, id);
    },

    async list(accountId, limit) {
      const rows = await listCrawls(db, accountId, limit);
      return rows.map((row) => ({
        id: row.id,
        url: row.url,
        status: row.status,
        completed: Number(row.ended),
        total: Number(row.total),
        creditsUsed: Number(row.credits_used),
        error: row.error,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
      }));
    },
  };
}
