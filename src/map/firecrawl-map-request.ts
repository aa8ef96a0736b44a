/**
 * Firecrawl's map body (v2, and v1 where it differs) as a MapRequest, with Firecrawl's
 * defaults. The door's schema has checked the types and refused unknown fields; this applies
 * the defaults and the meaning of each field.
 *
 * Fields taken and ignored: `origin`, `integration` (the SDKs' tags), `useIndex` (there is no
 * index of earlier crawls here), `location.country` (maps fetch directly, never through a
 * proxy).
 */
import { parseHttpUrlParam } from '../scrape/params/http-url.js';
import type { MapRequest, SitemapMode } from './types.js';

export type FirecrawlMapVersion = 'v1' | 'v2';

/** Firecrawl's limits: v2 allows 100,000 links, v1 30,000; both default to 5,000. */
export const MAX_MAP_LIMIT = { v1: 30_000, v2: 100_000 } as const;
export const DEFAULT_MAP_LIMIT = 5000;

export interface FirecrawlMapBody {
  url: string;
  search?: string;
  limit?: number;
  includeSubdomains?: boolean;
  ignoreQueryParameters?: boolean;
  /** v2 */
  sitemap?: SitemapMode;
  /** v1: true is v2's sitemap 'skip'. */
  ignoreSitemap?: boolean;
  /** v1: true is v2's sitemap 'only' (wins over ignoreSitemap, as in Firecrawl). */
  sitemapOnly?: boolean;
  filterByPath?: boolean;
  /** Milliseconds. */
  timeout?: number;
  location?: { country?: string; languages?: string[] };
  origin?: string;
  integration?: string | null;
  useIndex?: boolean;
}

function sitemapModeOf(body: FirecrawlMapBody, version: FirecrawlMapVersion): SitemapMode {
  if (version === 'v2') return body.sitemap ?? 'include';
  if (body.sitemapOnly) return 'only';
  return body.ignoreSitemap ? 'skip' : 'include';
}

/** Firecrawl takes `example.com` for `http://example.com`. */
function withScheme(url: string): string {
  const trimmed = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}

export function mapRequestOf(body: FirecrawlMapBody, version: FirecrawlMapVersion): MapRequest {
  const search = body.search?.trim();
  return {
    url: parseHttpUrlParam('url', withScheme(body.url)),
    search: search ? search : null,
    limit: Math.floor(body.limit ?? DEFAULT_MAP_LIMIT),
    includeSubdomains: body.includeSubdomains ?? true,
    // Firecrawl v2 ignores query parameters unless told not to; v1's crawler options default
    // to keeping them.
    ignoreQueryParameters: body.ignoreQueryParameters ?? version === 'v2',
    sitemap: sitemapModeOf(body, version),
    filterByPath: body.filterByPath ?? true,
    timeoutMs: body.timeout ?? null,
    languages: [...(body.location?.languages ?? [])],
  };
}
