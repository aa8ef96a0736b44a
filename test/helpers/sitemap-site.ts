/**
 * Fixture sites for maps, on a fixture site (127.0.0.1) addressed as `localhost` so that
 * `blog.localhost` links are its subdomain (they are only listed, never fetched: only
 * `localhost` resolves here).
 *
 * `withSitemaps`: robots.txt names a sitemap index, which lists a plain sitemap and a gzipped
 * one (served as a file, not as Content-Encoding); the home page has its own links.
 * `withoutSitemaps`: no robots.txt, no sitemap; links from the page only.
 */
import { gzipSync } from 'node:zlib';
import type { FixtureSite } from './fixture-site.js';

export const HOME_TITLE = 'Map fixture home';
export const HOME_DESCRIPTION = 'A site to map';

export interface SitemapSite {
  /** http://localhost:<port> */
  base: string;
  /** The home page, as a map lists it. */
  home: string;
  /** Pages only the plain sitemap names (the guide with its query dropped). */
  pagesSitemap: string[];
  /** Pages only the gzipped sitemap names. */
  blogSitemap: string[];
  /** Pages only the home page links to. */
  pageOnly: string[];
  /** A subdomain page in the gzipped sitemap and one linked from the page. */
  subdomain: string[];
  /** The guide as the sitemap writes it, query and all. */
  guideWithQuery: string;
}

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map(
      (url) => `<url><loc>${url.replace(/&/g, '&amp;')}</loc><lastmod>2024-01-01</lastmod></url>`,
    )
    .join('')}</urlset>`;

export function withSitemaps(site: FixtureSite): SitemapSite {
  const base = `http://localhost:${site.port}`;
  const blogHost = `http://blog.localhost:${site.port}`;
  const guideWithQuery = `${base}/docs/guide?ref=nav&lang=en`;
  const pages = [`${base}/docs/intro`, guideWithQuery, `${base}/pricing`];
  const blog = [`${base}/blog/hello-world`, `${base}/blog/second-post`];
  const subdomain = [`${blogHost}/feature`, `${blogHost}/from-page`];

  site.route('/robots.txt', (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`User-agent: *\nDisallow: /private\n\nSitemap: ${base}/sitemap-index.xml\n`);
  });
  site.route('/sitemap-index.xml', (_req, res) => {
    res.setHeader('content-type', 'application/xml');
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemaps/pages.xml</loc></sitemap><sitemap><loc>${base}/sitemaps/blog.xml.gz</loc></sitemap></sitemapindex>`,
    );
  });
  site.route('/sitemaps/pages.xml', (_req, res) => {
    res.setHeader('content-type', 'application/xml');
    res.end(urlset(pages));
  });
  site.route('/sitemaps/blog.xml.gz', (_req, res) => {
    res.setHeader('content-type', 'application/gzip');
    res.end(gzipSync(urlset([...blog, subdomain[0] as string])));
  });
  site.html(
    '/',
    `<!doctype html><html><head><title>${HOME_TITLE}</title>
<meta name="description" content="${HOME_DESCRIPTION}"></head><body>
<nav><a href="/about">About</a> <a href="/contact#form">Contact</a> <a href="/docs/intro#top">Intro</a></nav>
<a href="https://elsewhere.example/">Elsewhere</a> <a href="mailto:team@example.com">Mail</a>
<a href="${subdomain[1]}">Blog</a>
</body></html>`,
  );
  return {
    base,
    home: `${base}/`,
    pagesSitemap: [`${base}/docs/intro`, `${base}/docs/guide`, `${base}/pricing`],
    blogSitemap: blog,
    pageOnly: [`${base}/about`, `${base}/contact`],
    subdomain,
    guideWithQuery,
  };
}

export function withoutSitemaps(site: FixtureSite): { base: string; links: string[] } {
  const base = `http://localhost:${site.port}`;
  site.html(
    '/',
    `<!doctype html><html><head><title>No sitemap here</title></head><body>
<a href="/one">One</a> <a href="two">Two</a> <a href="${base}/three?x=1">Three</a>
</body></html>`,
  );
  return { base, links: [`${base}/`, `${base}/one`, `${base}/two`, `${base}/three`] };
}
