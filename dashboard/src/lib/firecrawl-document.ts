/**
 * A Firecrawl Document as the door answers it (a scrape, a crawl's or a batch's page), in a
 * plain module: modules without JSX import it too.
 */
export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** A link the service serves, or a data: URL (screenshotBase64). */
  screenshot?: string;
  metadata?: Record<string, unknown> & {
    sourceURL?: string;
    url?: string;
    statusCode?: number;
    title?: string;
    scrapeId?: string;
    creditsUsed?: number;
  };
}
