import { type ApiClient, ApiError } from '../../api/client.js';

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
export interface CrawlPage {
  markdown?: string;
  metadata?: { sourceURL?: string; url?: string; statusCode?: number; title?: string };
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
};
