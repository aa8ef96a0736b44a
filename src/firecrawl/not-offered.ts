/**
 * Firecrawl's endpoints this server does not offer (its v1 and v2 references and the pinned
 * SDK's calls), each with what to use instead, in words an agent can act on: most need a web
 * search engine or a language model, which a self-hosted scraper does not have. The door
 * answers each with 404 (no such endpoint here; a 4xx, so the SDKs and firecrawl-mcp do not
 * retry it) and this text. `extract` is not listed: it is offered.
 */

export type NotOfferedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface NotOfferedEndpoint {
  /** Fastify route paths; `*` covers everything below a feature's path. */
  paths: readonly string[];
  methods: readonly NotOfferedMethod[];
  /** Firecrawl's name for the feature. */
  feature: string;
  instead: string;
}

const ALL: readonly NotOfferedMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const GATHER =
  'Gather the pages yourself with POST /v2/scrape, /v2/map, /v2/crawl or /v2/batch/scrape and reason over their Markdown.';

/** Also a scrape body naming Alexandria calls instead of a URL (firecrawl-mcp's find_tools). */
export const ALEXANDRIA: NotOfferedEndpoint = {
  paths: ['/exchange', '/exchange/*'],
  methods: ALL,
  feature: 'Alexandria data providers (/exchange, or an `alexandria` body to /v2/scrape)',
  instead:
    "Its catalogue of provider tools is Firecrawl's own. Scrape the provider's web pages by `url` with POST /v2/scrape instead.",
};

export const NOT_OFFERED: readonly NotOfferedEndpoint[] = [
  ALEXANDRIA,
  {
    paths: ['/v1/search', '/v2/search', '/v2/search/*', '/v1/x402/search'],
    methods: ALL,
    feature: 'search (web, news, research papers, developer docs)',
    instead:
      "It needs a web search engine, which this server does not have. Read pages you know with POST /v2/scrape, list a site's pages with POST /v2/map (its `search` option filters them by words), or crawl a site with POST /v2/crawl.",
  },
  {
    paths: ['/v2/agent', '/v2/agent/*'],
    methods: ALL,
    feature: 'agent',
    instead: `It runs a language model, which this server does not have. ${GATHER}`,
  },
  {
    paths: ['/v1/deep-research', '/v1/deep-research/*'],
    methods: ALL,
    feature: 'deep research',
    instead: `It runs a language model and a web search, which this server does not have. ${GATHER}`,
  },
  {
    paths: ['/v1/llmstxt', '/v1/llmstxt/*'],
    methods: ALL,
    feature: 'llms.txt generation',
    instead:
      "Build it yourself: list the site's pages with POST /v2/map, then read them with POST /v2/batch/scrape (formats: markdown).",
  },
  {
    paths: ['/v2/monitor', '/v2/monitor/*'],
    methods: ALL,
    feature: 'monitors',
    instead:
      "Scrape the page again when you need it (maxAge: 0 for a fresh copy), or save a workflow (POST /api/workflow/create) and give it a schedule (PUT /api/workflow/{id}/schedule) in this server's native API (see /docs).",
  },
  {
    paths: ['/v2/browser', '/v2/browser/*', '/v2/scrape/:id/interact'],
    methods: ALL,
    feature: 'browser sessions and interact',
    instead:
      'Sessions driven call by call are not kept. Give POST /v2/scrape an `actions` list (click, write, press, scroll, wait, screenshot) to act on the page within one scrape.',
  },
  {
    paths: ['/v1/scrape/:id', '/v2/scrape/:id'],
    methods: ['GET'],
    feature: 'scrape status by id',
    instead:
      'A scrape is answered in full by POST /v2/scrape and not kept by id; scrape again to read it later (maxAge lets a recent copy answer from the cache).',
  },
  {
    paths: ['/v2/parse'],
    methods: ALL,
    feature: 'file upload parsing',
    instead:
      'Uploads are not taken. Put the file at a URL this server can reach and scrape it with POST /v2/scrape: PDF, DOCX, text, JSON, XML and CSV come back as Markdown.',
  },
  {
    paths: ['/v2/crawl/params-preview'],
    methods: ALL,
    feature: 'crawl params preview',
    instead:
      'It turns a prompt into crawl options with a language model. Set the options (includePaths, excludePaths, limit, maxDiscoveryDepth) yourself in POST /v2/crawl.',
  },
  {
    paths: ['/v2/feedback'],
    methods: ALL,
    feature: 'feedback',
    instead: "Feedback goes to Firecrawl's team, not to this server: no call is needed.",
  },
  {
    paths: [
      '/v1/team/token-usage',
      '/v2/team/token-usage',
      '/v1/team/token-usage/historical',
      '/v2/team/token-usage/historical',
    ],
    methods: ALL,
    feature: 'token usage',
    instead:
      'It counts language-model tokens, which this server does not spend. Credits left: GET /v2/team/credit-usage.',
  },
  {
    paths: [
      '/v1/team/credit-usage/historical',
      '/v2/team/credit-usage/historical',
      '/v1/team/queue-status',
      '/v2/team/queue-status',
    ],
    methods: ALL,
    feature: 'historical usage and queue status',
    instead:
      "Credits left: GET /v2/team/credit-usage; scrapes running: GET /v2/concurrency-check; usage by day: this server's native GET /api/account/usage.",
  },
];

export function isAlexandriaBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'alexandria' in body;
}

export function notOfferedMessage(endpoint: NotOfferedEndpoint): string {
  return `This self-hosted server (pagegrab) does not offer Firecrawl's ${endpoint.feature}. ${endpoint.instead}`;
}
