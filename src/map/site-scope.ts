/**
 * Which links belong to the mapped site, and when two links are one.
 *
 * - The site is the start URL's host, and the host its page redirected to; `www.` is the
 *   same site (example.com and www.example.com). With `includeSubdomains`, any host under
 *   the site counts too (blog.example.com when mapping example.com); mapping a subdomain
 *   does not take in its parent. Ports and schemes are not compared, as in Firecrawl.
 * - With `filterByPath` (Firecrawl's default) and a start URL below the root
 *   (`/docs/intro`), only links whose path starts with that path are the site's.
 * - A link is normalised before it is compared: fragment dropped, query dropped when
 *   `ignoreQueryParameters`; two links that differ only in scheme or a leading `www.` are
 *   one, the first one seen is kept.
 */

export interface SiteScope {
  /** Site names: hosts without a leading `www.`. */
  readonly names: readonly string[];
  readonly includeSubdomains: boolean;
  /** Links must be under this path; null: anywhere on the site. */
  readonly pathPrefix: string | null;
}

function siteName(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

export function siteScopeOf(
  startUrl: string,
  finalUrl: string | null,
  options: { includeSubdomains: boolean; filterByPath: boolean },
): SiteScope {
  const start = new URL(startUrl);
  const names = new Set([siteName(start.hostname)]);
  if (finalUrl) names.add(siteName(new URL(finalUrl).hostname));
  const path = start.pathname;
  return {
    names: [...names],
    includeSubdomains: options.includeSubdomains,
    pathPrefix: options.filterByPath && path.length > 1 ? path : null,
  };
}

export function inScope(scope: SiteScope, url: URL): boolean {
  const name = siteName(url.hostname);
  const onSite = scope.names.some(
    (site) => name === site || (scope.includeSubdomains && name.endsWith(`.${site}`)),
  );
  return onSite && (scope.pathPrefix === null || url.pathname.startsWith(scope.pathPrefix));
}

/** The link as answered, or null when it is not an http(s) URL. */
export function normalisedLink(raw: string, ignoreQueryParameters: boolean): URL | null {
  const url = URL.parse(raw.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  url.hash = '';
  if (ignoreQueryParameters) url.search = '';
  return url;
}

/** Links with the same key are one: scheme and a leading `www.` do not matter. */
export function dedupeKey(url: URL): string {
  const port = url.port ? `:${url.port}` : '';
  return `${siteName(url.hostname)}${port}${url.pathname}${url.search}`;
}
