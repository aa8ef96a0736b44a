/** A map: what is asked, and what it answers. Free of HTTP: the doors translate into these. */

/** Where links come from besides the page: its sitemaps too, never, or only them. */
export type SitemapMode = 'include' | 'skip' | 'only';

export interface MapRequest {
  /** The site's page to start from: an absolute http(s) URL, normalised. */
  url: string;
  /** Ranks the links that contain it first (search-rank.ts); null: discovery order. */
  search: string | null;
  /** Links answered at most. */
  limit: number;
  /** Links on subdomains of the start host count as the site's. */
  includeSubdomains: boolean;
  /** `?a=1` and `?a=2` are one link (the query is dropped). */
  ignoreQueryParameters: boolean;
  sitemap: SitemapMode;
  /** Firecrawl's default: when the start URL has a path, only links under that path. */
  filterByPath: boolean;
  /**
   * The caller's deadline: past it the map fails (TIMED_OUT, refunded), as Firecrawl's does.
   * null: the service's budget, after which the links found so far are the answer.
   */
  timeoutMs: number | null;
  /** Sent as Accept-Language with every fetch. */
  languages: readonly string[];
}

export interface MapLink {
  url: string;
  /** Known for the start page only: sitemaps and anchors do not give a page's title. */
  title?: string;
  description?: string;
}

export interface MapResult {
  links: MapLink[];
  creditsUsed: number;
}
