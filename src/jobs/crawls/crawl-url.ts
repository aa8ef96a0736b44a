/**
 * When two URLs are one page of a crawl: the frontier keeps one row per normalised key.
 *
 * - scheme: http and https are one page (sites answer both; the first form seen is scraped)
 * - host: lower case (WHATWG URL does it), IDNs in punycode, a leading `www.` dropped
 * - port: a default port (80 for http, 443 for https) is no port
 * - path: percent-encoding as WHATWG URL serialises it; `.` and `..` segments resolved; one
 *   trailing slash is dropped (`/docs/` and `/docs` are one), the root stays `/`
 * - query: kept as written, parameter order included; dropped whole with
 *   `ignoreQueryParameters`; an empty `?` is no query
 * - fragment: always dropped (`#section` is the same document)
 *
 * The URL that is scraped is the first form discovered, with its fragment dropped.
 */

export interface NormalisedUrl {
  /** The URL to scrape (fragment dropped, query dropped when asked). */
  url: string;
  /** The frontier's key. */
  key: string;
  /** The host as the politeness rows name it: lower case, with its port if not default. */
  host: string;
}

export function siteNameOf(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

export function normaliseCrawlUrl(
  raw: string,
  base: string | undefined,
  ignoreQueryParameters: boolean,
): NormalisedUrl | null {
  const url = URL.parse(raw.trim(), base);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if (url.username || url.password) return null;
  url.hash = '';
  if (ignoreQueryParameters || url.search === '?') url.search = '';
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const port = url.port ? `:${url.port}` : '';
  return {
    url: url.href,
    key: `${siteNameOf(url.hostname)}${port}${path}${url.search}`,
    host: url.host.toLowerCase(),
  };
}
