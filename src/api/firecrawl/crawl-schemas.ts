/**
 * The crawl routes' bodies and answers as TypeBox schemas (validation and OpenAPI), in
 * Firecrawl's shapes: `{url, ...crawl options, scrapeOptions, webhook}`, closed like every
 * body of the door. v1 has its own names (maxDepth, allowBackwardLinks, ignoreSitemap).
 * Status, cancel and errors answer as a batch's do (batch-schemas.ts).
 */
import { type TProperties, Type } from '@sinclair/typebox';
import { Webhook } from './batch-schemas.js';
import { scrapeOptionPropertiesV1, scrapeOptionPropertiesV2 } from './schemas/scrape-options.js';

const closed = { additionalProperties: false } as const;
const Paths = (what: string) =>
  Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 100,
      description: `Regular expressions on the URL's path (the whole URL with regexOnFullURL): ${what}`,
    }),
  );

function crawlProperties(scrapeOptions: TProperties) {
  return {
    url: Type.String({ description: 'The start page: an absolute http(s) URL' }),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Pages crawled at most (default 10000; cut to CRAWL_MAX_URLS)',
      }),
    ),
    includePaths: Paths('a URL must match one'),
    excludePaths: Paths('a URL matching one is skipped'),
    regexOnFullURL: Type.Optional(Type.Boolean()),
    allowExternalLinks: Type.Optional(Type.Boolean({ description: 'Follow links to any host' })),
    allowSubdomains: Type.Optional(
      Type.Boolean({ description: "Follow links to the site's subdomains" }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({ description: 'URLs differing only in their query are one page' }),
    ),
    delay: Type.Optional(
      Type.Number({ minimum: 0, maximum: 600, description: 'Seconds between two pages on a host' }),
    ),
    maxConcurrency: Type.Optional(
      Type.Integer({ minimum: 1, description: "Pages at once; default the account's limit" }),
    ),
    ignoreRobotsTxt: Type.Optional(
      Type.Boolean({
        description: 'Refused (400) unless the operator set CRAWL_ALLOW_IGNORE_ROBOTS',
      }),
    ),
    deduplicateSimilarURLs: Type.Optional(
      Type.Boolean({ description: 'Accepted; URLs are always normalised (see the README)' }),
    ),
    zeroDataRetention: Type.Optional(Type.Boolean({ description: 'Accepted; results expire' })),
    webhook: Type.Optional(Webhook),
    scrapeOptions: Type.Optional(Type.Object(scrapeOptions, closed)),
    integration: Type.Optional(Type.String()),
    origin: Type.Optional(Type.String()),
  } satisfies TProperties;
}

const SitemapMode = Type.Union(
  [Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')],
  {
    description:
      'include: sitemap entries join the start page; skip: links only; only: sitemap entries only',
  },
);

export const CrawlBodyV2 = Type.Object(
  {
    ...crawlProperties(scrapeOptionPropertiesV2),
    maxDiscoveryDepth: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Link hops from the start page (sitemap entries are 0)',
      }),
    ),
    crawlEntireDomain: Type.Optional(
      Type.Boolean({ description: "Any path of the site, not only those under the start URL's" }),
    ),
    sitemap: Type.Optional(SitemapMode),
    robotsUserAgent: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Not offered: robots.txt is read for pagegrab',
      }),
    ),
    prompt: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Not offered (needs a language model): 400',
      }),
    ),
  },
  closed,
);

export const CrawlBodyV1 = Type.Object(
  {
    ...crawlProperties(scrapeOptionPropertiesV1),
    maxDepth: Type.Optional(
      Type.Integer({ minimum: 0, description: "Path segments below the start URL's" }),
    ),
    maxDiscoveryDepth: Type.Optional(Type.Integer({ minimum: 0 })),
    allowBackwardLinks: Type.Optional(
      Type.Boolean({ description: 'v1 name of crawlEntireDomain' }),
    ),
    crawlEntireDomain: Type.Optional(Type.Boolean()),
    ignoreSitemap: Type.Optional(Type.Boolean()),
    sitemap: Type.Optional(SitemapMode),
  },
  closed,
);

export const CrawlStarted = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  url: Type.String({ description: 'Where the crawl status answers' }),
});

export const ActiveCrawlsAnswer = Type.Object({
  success: Type.Literal(true),
  crawls: Type.Array(
    Type.Object({
      id: Type.String(),
      teamId: Type.String(),
      url: Type.String(),
      status: Type.String(),
      options: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});
