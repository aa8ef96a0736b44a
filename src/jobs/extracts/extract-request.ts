/**
 * Firecrawl's extract body (v1 and v2, as its SDK sends it) as what the job runs: the pages
 * to read (`https://site/*`: the site, found by a map), the model's task, the scrape options
 * of every page. Checked before anything is stored: a bad URL, schema or scrape option is a
 * 400 then, never a failed job.
 */
import { appError } from '../../errors.js';
import {
  type FirecrawlScrapeOptions,
  type FirecrawlVersion,
  firecrawlScrapeOf,
} from '../../firecrawl/scrape-request.js';
import { schemaValidator } from '../../models/structured-answer.js';
import { parseHttpUrlParam } from '../../scrape/params/http-url.js';

export interface ExtractBody {
  urls: string[];
  prompt?: string;
  schema?: Record<string, unknown>;
  systemPrompt?: string;
  enableWebSearch?: boolean;
  includeSubdomains?: boolean;
  showSources?: boolean;
  ignoreInvalidURLs?: boolean;
  scrapeOptions?: FirecrawlScrapeOptions;
}

/** One entry of `urls`: a page, or a whole site (its `/*` form). */
export interface ExtractTarget {
  url: string;
  site: boolean;
}

/** What the job needs, stored with the extract. */
export interface ExtractRequest {
  version: FirecrawlVersion;
  /** The account's concurrency limit when it asked (its pages are its scrapes). */
  concurrencyLimit: number;
  targets: ExtractTarget[];
  prompt?: string;
  schema?: Record<string, unknown>;
  systemPrompt?: string;
  includeSubdomains: boolean;
  showSources: boolean;
  scrapeOptions: FirecrawlScrapeOptions;
}

export function extractRequestOf(
  body: ExtractBody,
  version: FirecrawlVersion,
  concurrencyLimit: number,
): { request: ExtractRequest; invalidURLs: string[] } {
  if (body.prompt === undefined && body.schema === undefined) {
    throw appError('BAD_REQUEST', 'An extract needs a prompt or a schema');
  }
  if (body.enableWebSearch === true) {
    throw appError('BAD_REQUEST', 'enableWebSearch is not offered by this server: name the urls');
  }
  if (body.schema) schemaValidator(body.schema);
  const targets: ExtractTarget[] = [];
  const invalidURLs: string[] = [];
  for (const raw of body.urls) {
    const site = raw.endsWith('/*');
    try {
      targets.push({ url: parseHttpUrlParam('url', site ? raw.slice(0, -1) : raw), site });
    } catch (error) {
      // v2 leaves invalid URLs out by default and names them; v1 refuses them.
      if (!(body.ignoreInvalidURLs ?? version === 'v2')) throw error;
      invalidURLs.push(raw);
    }
  }
  if (targets.length === 0)
    throw appError('BAD_REQUEST', 'An extract needs at least one valid URL');
  const scrapeOptions: FirecrawlScrapeOptions = { ...body.scrapeOptions, formats: ['markdown'] };
  // The pages' options are checked now, against the first page, as a batch checks its own.
  firecrawlScrapeOf(targets[0]?.url ?? '', scrapeOptions, version);
  return {
    invalidURLs,
    request: {
      version,
      concurrencyLimit,
      targets,
      ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
      ...(body.schema !== undefined ? { schema: body.schema } : {}),
      ...(body.systemPrompt !== undefined ? { systemPrompt: body.systemPrompt } : {}),
      includeSubdomains: body.includeSubdomains ?? false,
      showSources: body.showSources ?? false,
      scrapeOptions,
    },
  };
}
