/**
 * Crawls and batches through the Firecrawl SDK, waited for as the SDK's own `crawl()` and
 * `batchScrape()` wait: the same start (`startCrawl`, `startBatchScrape`: the same payload),
 * then the job's status until it is completed, failed or cancelled, then that status with
 * every page of results. The SDK's waiters sleep at least a second between looks
 * (`Math.max(1e3, pollInterval * 1e3)`): a job of a few loopback pages ended, then waited most
 * of a second to be seen. These look every 100 ms. Each test file that uses them still runs
 * the SDK's own waiter at least once.
 */
import type Firecrawl from '@mendable/firecrawl-js';
import { until } from './until.js';

type CrawlRequest = NonNullable<Parameters<Firecrawl['startCrawl']>[1]>;
type BatchRequest = NonNullable<Parameters<Firecrawl['startBatchScrape']>[1]>;

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** A small job's status, cheap to ask for: a look every 100 ms costs the service little. */
const LOOK_EVERY_MS = 100;

export async function crawlToEnd(
  fc: Firecrawl,
  url: string,
  request: CrawlRequest,
  /** A guard against a hang only (the SDK's `timeout`). */
  guardMs = 180_000,
) {
  const { id } = await fc.startCrawl(url, request);
  await until(
    async () => ENDED.has((await fc.getCrawlStatus(id, { autoPaginate: false })).status),
    guardMs,
    LOOK_EVERY_MS,
  );
  return fc.getCrawlStatus(id);
}

export async function batchToEnd(
  fc: Firecrawl,
  urls: string[],
  request: BatchRequest,
  /** A guard against a hang only (the SDK's `timeout`). */
  guardMs = 180_000,
) {
  const { id } = await fc.startBatchScrape(urls, request);
  await until(
    async () => ENDED.has((await fc.getBatchScrapeStatus(id, { autoPaginate: false })).status),
    guardMs,
    LOOK_EVERY_MS,
  );
  return fc.getBatchScrapeStatus(id);
}
