/**
 * A crawl's own options (Firecrawl's, v2 names; v1's translated), as stored on the crawl, and
 * which discovered URLs they let in.
 *
 * - The site is the start URL's host without `www.`; `allowSubdomains` takes in its
 *   subdomains, `allowExternalLinks` any host.
 * - Unless `crawlEntireDomain` (v1 `allowBackwardLinks`), only URLs under the start URL's
 *   path (its directory: `/docs/intro` admits `/docs/...`).
 * - `includePaths` / `excludePaths`: regular expressions matched against the URL's path (the
 *   whole URL with `regexOnFullURL`); a URL must match one include (when any) and no exclude.
 *   The start URL is always scraped.
 * - `maxDiscoveryDepth`: links followed from the start page are depth 1, theirs 2, and so on;
 *   sitemap entries are depth 0. v1's `maxDepth` bounds the path instead: at most that many
 *   segments below the start URL's path.
 */
import { appError } from '../../errors.js';
import type { SitemapMode } from '../../map/types.js';
import { siteNameOf } from './crawl-url.js';

export interface CrawlOptions {
  /** Pages scraped at most (the frontier takes in no more). */
  limit: number;
  maxDiscoveryDepth: number | null;
  /** v1's maxDepth: path segments below the start URL's. */
  maxPathDepth: number | null;
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  crawlEntireDomain: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  ignoreQueryParameters: boolean;
  sitemap: SitemapMode;
  /** Between two pages' starts on one host (Firecrawl's `delay`, in seconds there). */
  delayMs: number;
  maxConcurrency: number | null;
  ignoreRobotsTxt: boolean;
}

/** The crawl fields of Firecrawl's bodies (v2 and v1 names), as the door validated them. */
export interface CrawlBody {
  limit?: number;
  maxDiscoveryDepth?: number;
  maxDepth?: number;
  includePaths?: string[];
  excludePaths?: string[];
  regexOnFullURL?: boolean;
  crawlEntireDomain?: boolean;
  allowBackwardLinks?: boolean;
  allowExternalLinks?: boolean;
  allowSubdomains?: boolean;
  ignoreQueryParameters?: boolean;
  sitemap?: SitemapMode;
  ignoreSitemap?: boolean;
  delay?: number;
  maxConcurrency?: number;
  ignoreRobotsTxt?: boolean;
}

/** Firecrawl's default `limit`. */
export const DEFAULT_CRAWL_LIMIT = 10_000;
/** Longest pattern accepted; matched against every discovered URL. */
const MAX_PATTERN_LENGTH = 500;

function compile(field: string, patterns: string[]): RegExp[] {
  return patterns.map((pattern, i) => {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw appError('BAD_REQUEST', `${field}[${i}] is longer than ${MAX_PATTERN_LENGTH}`);
    }
    try {
      return new RegExp(pattern);
    } catch {
      throw appError('BAD_REQUEST', `${field}[${i}] is not a valid regular expression`);
    }
  });
}

/** The body's crawl options with Firecrawl's defaults; `maxUrls` bounds `limit` (400s). */
export function crawlOptionsOf(body: CrawlBody, maxUrls: number): CrawlOptions {
  const includePaths = [...(body.includePaths ?? [])];
  const excludePaths = [...(body.excludePaths ?? [])];
  compile('includePaths', includePaths);
  compile('excludePaths', excludePaths);
  return {
    limit: Math.min(body.limit ?? DEFAULT_CRAWL_LIMIT, maxUrls),
    maxDiscoveryDepth: body.maxDiscoveryDepth ?? null,
    maxPathDepth: body.maxDepth ?? null,
    includePaths,
    excludePaths,
    regexOnFullURL: body.regexOnFullURL ?? false,
    crawlEntireDomain: body.crawlEntireDomain ?? body.allowBackwardLinks ?? false,
    allowExternalLinks: body.allowExternalLinks ?? false,
    allowSubdomains: body.allowSubdomains ?? false,
    ignoreQueryParameters: body.ignoreQueryParameters ?? false,
    sitemap: body.sitemap ?? (body.ignoreSitemap ? 'skip' : 'include'),
    delayMs: Math.round((body.delay ?? 0) * 1000),
    maxConcurrency: body.maxConcurrency ?? null,
    ignoreRobotsTxt: body.ignoreRobotsTxt ?? false,
  };
}

const segments = (path: string) => path.split('/').filter((s) => s !== '').length;

/** Decides which discovered URLs the crawl takes in (pure; built once per page end). */
export function crawlScopeOf(startUrl: string, options: CrawlOptions) {
  const start = new URL(startUrl);
  const site = siteNameOf(start.hostname);
  // The start URL's directory: /docs/intro admits /docs/..., /docs/ admits /docs/...
  const directory = start.pathname.endsWith('/')
    ? start.pathname
    : start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
  const prefix = options.crawlEntireDomain || directory === '/' ? null : directory;
  const include = compile('includePaths', options.includePaths);
  const exclude = compile('excludePaths', options.excludePaths);
  const baseDepth = segments(start.pathname);

  return (url: URL, depth: number): boolean => {
    if (options.maxDiscoveryDepth !== null && depth > options.maxDiscoveryDepth) return false;
    if (!options.allowExternalLinks) {
      const name = siteNameOf(url.hostname);
      const onSite = name === site || (options.allowSubdomains && name.endsWith(`.${site}`));
      if (!onSite) return false;
      if (prefix !== null && !`${url.pathname}/`.startsWith(prefix)) return false;
    }
    if (
      options.maxPathDepth !== null &&
      segments(url.pathname) - baseDepth > options.maxPathDepth
    ) {
      return false;
    }
    const subject = options.regexOnFullURL ? url.href : url.pathname;
    if (include.length > 0 && !include.some((re) => re.test(subject))) return false;
    return !exclude.some((re) => re.test(subject));
  };
}
