/** What a batch keeps of its request: the scrape options as sent, the door's version, the webhook. */
import type { FirecrawlScrapeOptions, FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import type { Batch } from '../../store/batches.js';
import type { BatchWebhook } from './batch-events.js';

export interface BatchOptions {
  version: FirecrawlVersion;
  /** Translated per page (firecrawl/scrape-request.ts), as a single scrape's are. */
  scrape: FirecrawlScrapeOptions;
}

export function batchOptionsOf(batch: Pick<Batch, 'version' | 'options'>): BatchOptions {
  return {
    version: batch.version === 'v1' ? 'v1' : 'v2',
    scrape: JSON.parse(batch.options) as FirecrawlScrapeOptions,
  };
}

export function batchWebhookOfRow(batch: Pick<Batch, 'webhook'>): BatchWebhook | null {
  return batch.webhook ? (JSON.parse(batch.webhook) as BatchWebhook) : null;
}
