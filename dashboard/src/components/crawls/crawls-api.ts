import { type ApiClient, ApiError } from '../../api/client.js';
import type { FirecrawlDocument } from '../../lib/firecrawl-document.js';

/** A crawl as GET /api/crawls lists it. */
export interface CrawlSummary {
  id: string;
  url: string;
  status: 'scraping' | 'completed' | 'failed' | 'cancelled' | string;
  completed: number;
  total: number;
  creditsUsed: number;
  error: string | null;
  createdAt: string;
  expiresAt: string;
}

/** A scraped page as the Firecrawl door's crawl status returns it. */
export type CrawlPage = FirecrawlDocument;

/** GET /v2/crawl/{id}/errors: failed pages and the URLs robots.txt kept the crawl from. */
export interface CrawlErrors {
  errors: { id: string; timestamp?: string; url: string; code?: string; error: string }[];
  robotsBlocked: string[];
}

export interface CrawlStatus {
  status: string;
  completed: number;
  total: number;
  creditsUsed: number;
  error?: string;
  next?: string;
  data: CrawlPage[];
}

async function call<T>(client: ApiClient, method: string, path: string): Promise<T> {
  const res = await fetch(`${client.baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': client.apiKey },
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const text = typeof body.error === 'string' ? body.error : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, text);
  }
  return body as T;
}

export const crawlsApi = {
  list: (client: ApiClient) => call<CrawlSummary[]>(client, 'GET', '/api/crawls'),
  status: (client: ApiClient, id: string, skip: number, limit: number) =>
    call<CrawlStatus>(
      client,
      'GET',
      `/v2/crawl/${encodeURIComponent(id)}?skip=${skip}&limit=${limit}`,
    ),
  cancel: (client: ApiClient, id: string) =>
    call<{ status: string }>(client, 'DELETE', `/v2/crawl/${encodeURIComponent(id)}`),
  errors: (client: ApiClient, id: string) =>
    call<CrawlErrors>(client, 'GET', `/v2/crawl/${encodeURIComponent(id)}/errors`),
  /** Every page of the results, a page of answers at a time (the export). */
  async allPages(client: ApiClient, id: string): Promise<CrawlPage[]> {
    const pages: CrawlPage[] = [];
    for (;;) {
      const answer = await crawlsApi.status(client, id, pages.length, EXPORT_PAGE);
      pages.push(...answer.data);
      if (!answer.next || answer.data.length === 0) return pages;
    }
  },
};

/** Results per answer while exporting: the door's own default and maximum. */
const EXPORT_PAGE = 100;
