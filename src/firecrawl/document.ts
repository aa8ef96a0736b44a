/**
 * A scrape's PageDocument (the pipeline's `document` output) as Firecrawl's Document: its
 * field names, metadata (sourceURL, url, statusCode, scrapeId, creditsUsed, proxyUsed,
 * cacheState, and pagegrab's `engine`) and screenshots as links served by pagegrab, or inline
 * when asked.
 */
import type { PageDocument, UsedResources } from '../scrape/types.js';

/** Where screenshots go: stored bytes answer at a link, or the bytes inline. */
export interface ScreenshotLinks {
  /** Stores the image and answers the absolute URL it is served at. */
  link(image: { contentType: string; base64: string }): Promise<string>;
}

export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: string;
  actions?: {
    screenshots: string[];
    scrapes: { url: string; html: string }[];
    javascriptReturns: { type: string; value: unknown }[];
    pdfs: string[];
  };
  /** The model's formats (firecrawl/model-formats.ts) and change tracking. */
  json?: unknown;
  extract?: unknown;
  summary?: string;
  changeTracking?: Record<string, unknown>;
  metadata: Record<string, unknown>;
  warning?: string;
}

export interface DocumentFacts {
  /** The URL the caller asked for. */
  sourceURL: string;
  finalUrl: string;
  statusCode: number;
  scrapeId: string;
  creditsUsed: number;
  used?: UsedResources;
  cacheState: 'hit' | 'miss';
  /** When the cached result was made (ISO), for a hit. */
  cachedAt?: string;
}

const dataUrl = (image: { contentType: string; base64: string }) =>
  `data:${image.contentType};base64,${image.base64}`;

export async function firecrawlDocumentOf(
  page: PageDocument,
  facts: DocumentFacts,
  screenshots: ScreenshotLinks | 'inline',
): Promise<FirecrawlDocument> {
  const show = (image: { contentType: string; base64: string }) =>
    screenshots === 'inline' ? Promise.resolve(dataUrl(image)) : screenshots.link(image);
  const document: FirecrawlDocument = {
    metadata: {
      ...page.metadata,
      sourceURL: facts.sourceURL,
      url: facts.finalUrl,
      statusCode: facts.statusCode,
      scrapeId: facts.scrapeId,
      creditsUsed: facts.creditsUsed,
      proxyUsed:
        facts.used?.proxyType === 'residential' || facts.used?.proxyType === 'mobile'
          ? 'stealth'
          : 'basic',
      // Firecrawl's Document has no field for it: which engine served, `fetch` or `browser`
      // (the door renders only the pages that need it, and charges the render only then).
      ...(facts.used ? { engine: facts.used.engine } : {}),
      cacheState: facts.cacheState,
      ...(facts.cachedAt ? { cachedAt: facts.cachedAt } : {}),
    },
  };
  if (page.markdown !== undefined) document.markdown = page.markdown;
  if (page.html !== undefined) document.html = page.html;
  if (page.rawHtml !== undefined) document.rawHtml = page.rawHtml;
  if (page.links !== undefined) document.links = page.links;
  if (page.screenshot) document.screenshot = await show(page.screenshot);
  if (page.actions) {
    document.actions = {
      screenshots: await Promise.all(page.actions.screenshots.map(show)),
      scrapes: page.actions.scrapes,
      javascriptReturns: page.actions.javascriptReturns,
      pdfs: [],
    };
  }
  return document;
}
