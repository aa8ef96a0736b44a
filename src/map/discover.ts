/**
 * A map's discovery: the start page (its URL after redirects, its title, description and
 * links) and the site's sitemaps (robots.txt's `Sitemap:` lines and /sitemap.xml, indexes
 * followed), read side by side; then the links in one list: the page first, then the
 * sitemaps' entries in their order, then the page's own links; kept when on the site (see
 * site-scope.ts), deduplicated, ranked by `search`, cut at `limit`.
 *
 * The signal bounds it all: when it fires, what was found so far is the answer (the caller
 * decides whether a deadline means failure). A map fails only when the site never answered.
 */
import { isAppError } from '../errors.js';
import { decodeBody } from '../scrape/net/charset.js';
import type { DocumentFetcher } from '../scrape/net/http-client.js';
import { forEachSliced } from './event-loop-slices.js';
import { type PageFacts, pageFactsOf } from './page-links.js';
import { sitemapsOfRobots, wellKnownOf } from './robots-sitemaps.js';
import { rankBySearch } from './search-rank.js';
import { dedupeKey, inScope, normalisedLink, type SiteScope, siteScopeOf } from './site-scope.js';
import { crawlSitemaps, type SitemapCrawlLimits } from './sitemap-crawl.js';
import type { MapLink, MapRequest } from './types.js';

export interface DiscoveryLimits extends SitemapCrawlLimits {
  /** Sitemap entries collected at most (a `search` ranks all of them before the cut). */
  maxCandidates: number;
}

export interface Discovery {
  fetcher: DocumentFetcher;
  limits: DiscoveryLimits;
}

interface Page extends PageFacts {
  url: string;
}

function isHtml(contentType: string | null): boolean {
  return contentType === null || /html/i.test(contentType);
}

export async function discoverLinks(
  request: MapRequest,
  { fetcher, limits }: Discovery,
  signal: AbortSignal,
): Promise<MapLink[]> {
  const get = (url: string) => fetcher.get(url, { signal, languages: request.languages });
  let answered = false;
  const failures: unknown[] = [];

  const readPage = async (): Promise<Page | null> => {
    try {
      const document = await get(request.url);
      answered = true;
      if (document.status >= 400 || !isHtml(document.contentType)) {
        return { url: document.url, links: [] };
      }
      const html = decodeBody(document.body, document.contentType).text;
      return { url: document.url, ...(await pageFactsOf(html, document.url)) };
    } catch (error) {
      failures.unshift(error);
      return null;
    }
  };

  // Counted against the start URL's scope, a subset of the final one: never stops too soon.
  const startScope = siteScopeOf(request.url, null, request);
  const sitemapUrls: string[] = [];
  const onSite = new Set<string>();
  const wanted = request.search ? limits.maxCandidates : request.limit;
  const readSitemaps = async () => {
    const { robots, sitemap } = wellKnownOf(request.url);
    const seeds: string[] = [];
    try {
      const document = await get(robots);
      answered = true;
      if (document.status < 400) {
        seeds.push(...sitemapsOfRobots(document.url, document.body.toString('utf8')));
      }
    } catch (error) {
      failures.push(error);
    }
    if (!seeds.includes(sitemap)) seeds.push(sitemap);
    await crawlSitemaps(seeds, {
      fetcher,
      signal,
      languages: request.languages,
      limits,
      onAnswer: () => {
        answered = true;
      },
      onUrls: (urls) => {
        for (const raw of urls.slice(0, limits.maxCandidates - sitemapUrls.length)) {
          sitemapUrls.push(raw);
          const url = normalisedLink(raw, request.ignoreQueryParameters);
          if (url && inScope(startScope, url)) onSite.add(dedupeKey(url));
        }
      },
      enough: () => sitemapUrls.length >= limits.maxCandidates || onSite.size >= wanted,
    });
  };

  const [page] = await Promise.all([
    request.sitemap === 'only' ? null : readPage(),
    request.sitemap === 'skip' ? null : readSitemaps(),
  ]);

  const refused = failures.find((error) => isAppError(error) && error.code === 'URL_NOT_ALLOWED');
  if (refused) throw refused;
  if (!answered) throw failures[0];

  const candidates: MapLink[] = [];
  if (request.sitemap !== 'only') candidates.push(startLink(request.url, page));
  for (const url of sitemapUrls) candidates.push({ url });
  for (const url of page?.links ?? []) candidates.push({ url });
  const scope = siteScopeOf(request.url, page?.url ?? null, request);
  const links = await onSiteOnce(candidates, scope, request.ignoreQueryParameters);
  const ranked = request.search ? await rankBySearch(links, request.search) : links;
  return ranked.slice(0, request.limit);
}

function startLink(url: string, page: Page | null): MapLink {
  if (!page) return { url };
  return {
    url: page.url,
    ...(page.title !== undefined && { title: page.title }),
    ...(page.description !== undefined && { description: page.description }),
  };
}

/**
 * Normalised, on the site, each once (the first seen kept, with any title found later). In
 * slices: up to 200,000 candidates, each parsed as a URL.
 */
async function onSiteOnce(
  candidates: MapLink[],
  scope: SiteScope,
  ignoreQuery: boolean,
): Promise<MapLink[]> {
  const kept = new Map<string, MapLink>();
  await forEachSliced(candidates, (candidate) => {
    const url = normalisedLink(candidate.url, ignoreQuery);
    if (!url || !inScope(scope, url)) return;
    const key = dedupeKey(url);
    const known = kept.get(key);
    if (!known) kept.set(key, { ...candidate, url: url.href });
    else if (known.title === undefined && candidate.title !== undefined) {
      kept.set(key, { ...candidate, url: known.url });
    }
  });
  return [...kept.values()];
}
