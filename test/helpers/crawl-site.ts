/**
 * A generated site to crawl, on loopback, that counts what the crawler does to it:
 *
 * - `/` links to `/p/0`; page `/p/i` links to its children `/p/(2i+1)` and `/p/(2i+2)` (a
 *   binary tree of `pages` pages), back to `/` and to its parent (cycles), and to itself
 *   with a fragment and a trailing slash (one page each, once normalised)
 * - `/old/i` redirects (301) to `/p/i`; page 0 links to `/old/1`; `redirects` adds more
 * - `/robots.txt` and `/sitemap.xml` (a sitemap index of two sitemaps) when asked
 * - `throttle`: the first `throttle` answers of each page are 429 (with Retry-After: 1, or
 *   what `retryAfter` says)
 * - `stallFirst`: the first GET of each of these paths is never answered (the client gives up)
 * - it counts every GET per path, the requests in flight and the most ever in flight
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CrawlSiteOptions {
  /** Pages of the tree (`/p/0` .. `/p/(pages-1)`). */
  pages: number;
  /** robots.txt body; null: 404. */
  robots?: string | null;
  /** Serve a sitemap index of two sitemaps listing these paths. */
  sitemapPaths?: string[];
  /** Milliseconds each page takes to answer. */
  delayMs?: number;
  /** The first n answers of each page are 429. */
  throttle?: number;
  /** The Retry-After of those 429s (called per answer). Default '1'. */
  retryAfter?: () => string;
  /** Extra links on every page (absolute URLs: other hosts). */
  extraLinks?: string[];
  /** Paragraphs of text added to every page (benchmarks: a page of realistic size). */
  filler?: number;
  /** More redirects (301): path → Location. */
  redirects?: Record<string, string>;
  /** Paths whose first GET is never answered: it stays open until the client closes it. */
  stallFirst?: string[];
}

export interface CrawlSite {
  origin: string;
  url(path: string): string;
  /** GETs per path (query included), robots.txt and sitemaps too. */
  hits: Map<string, number>;
  /** When each page path was answered with 429. */
  throttled: Map<string, number[]>;
  /**
   * Every request in order of arrival, timed by the site's clock (Date.now as it arrived),
   * with the status and Retry-After it was answered with (status 0: not answered).
   */
  log: { at: number; path: string; status: number; retryAfter?: string }[];
  /** Stalled requests (`stallFirst`) still open. */
  stalledOpen(): number;
  /** Paths of stalled requests the client closed. */
  abandoned: string[];
  inFlight(): number;
  maxInFlight(): number;
  /** Page paths of the tree, `/` first. */
  pagePaths(): string[];
  close(): Promise<void>;
}

const FILLER =
  'Crawling a site means reading each of its pages once, following the links it has, and keeping what each page says in a form a reader or an index can use later on.';

function pageHtml(i: number, pages: number, extra: string[], filler: number): string {
  const links = [`/`, `/p/${i}#top`, `/p/${i}/`];
  for (const child of [2 * i + 1, 2 * i + 2]) if (child < pages) links.push(`/p/${child}`);
  if (i > 0) links.push(`/p/${Math.floor((i - 1) / 2)}`);
  if (i === 0 && pages > 1) links.push('/old/1');
  links.push(...extra);
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  const text = Array.from({ length: filler }, (_, k) => `<p>${k}. ${FILLER}</p>`).join('');
  return `<!doctype html><html lang="en"><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1><p>Text of page ${i}, PAGE-${i}, long enough to be the main content of this page.</p>${text}<nav>${anchors}</nav></main></body></html>`;
}

export async function startCrawlSite(options: CrawlSiteOptions): Promise<CrawlSite> {
  const hits = new Map<string, number>();
  const throttled = new Map<string, number[]>();
  let inFlight = 0;
  let maxInFlight = 0;
  const extra = options.extraLinks ?? [];
  const toStall = new Set(options.stallFirst ?? []);
  let stalledOpen = 0;
  const abandoned: string[] = [];
  const log: CrawlSite['log'] = [];

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    const xml = (body: string) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(body);
    };
    if (path === '/robots.txt') {
      if (options.robots == null) return html(404, 'no');
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(options.robots);
    }
    if (path === '/sitemap.xml' && options.sitemapPaths) {
      return xml(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url('/sitemap-a.xml')}</loc></sitemap><sitemap><loc>${site.url('/sitemap-b.xml')}</loc></sitemap></sitemapindex>`,
      );
    }
    if ((path === '/sitemap-a.xml' || path === '/sitemap-b.xml') && options.sitemapPaths) {
      const half = Math.ceil(options.sitemapPaths.length / 2);
      const paths =
        path === '/sitemap-a.xml'
          ? options.sitemapPaths.slice(0, half)
          : options.sitemapPaths.slice(half);
      return xml(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${site.url(p)}</loc></url>`).join('')}</urlset>`,
      );
    }
    const moved = options.redirects?.[path];
    if (moved) {
      res.writeHead(301, { location: moved });
      return res.end();
    }
    const old = /^\/old\/(\d+)$/.exec(path);
    if (old) {
      res.writeHead(301, { location: `/p/${old[1]}` });
      return res.end();
    }
    if (toStall.delete(path)) {
      stalledOpen++;
      res.on('close', () => {
        stalledOpen--;
        abandoned.push(path);
      });
      return;
    }
    const page = path === '/' ? -1 : Number(/^\/p\/(\d+)\/?$/.exec(path)?.[1] ?? Number.NaN);
    if (Number.isNaN(page) || page >= options.pages) return html(404, '<p>not found</p>');
    if (options.throttle && (hits.get(path) ?? 0) <= options.throttle) {
      throttled.set(path, [...(throttled.get(path) ?? []), Date.now()]);
      res.setHeader('retry-after', options.retryAfter?.() ?? '1');
      return html(429, '<p>slow down</p>');
    }
    if (page === -1) {
      return html(
        200,
        `<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1><p>The home page of the crawl fixture, with a link to the tree.</p><a href="/p/0">start</a></main></body></html>`,
      );
    }
    return html(200, pageHtml(page, options.pages, extra, options.filler ?? 0));
  };

  const server = createServer((req, res) => {
    const entry: CrawlSite['log'][number] = {
      at: Date.now(),
      path: new URL(req.url ?? '/', 'http://x').pathname,
      status: 0,
    };
    log.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
      const retryAfter = res.getHeader('retry-after');
      if (retryAfter !== undefined) entry.retryAfter = String(retryAfter);
    });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const done = () => {
      inFlight--;
    };
    res.on('close', done);
    if (options.delayMs) setTimeout(() => answer(req, res), options.delayMs);
    else answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const site: CrawlSite = {
    origin,
    url: (path) => `${origin}${path}`,
    hits,
    throttled,
    log,
    stalledOpen: () => stalledOpen,
    abandoned,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    pagePaths: () => ['/', ...Array.from({ length: options.pages }, (_, i) => `/p/${i}`)],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return site;
}
