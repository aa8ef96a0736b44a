/**
 * Reads a site's sitemaps: the ones it declares, then the sitemaps their indexes list, level
 * by level, a few at a time. Bounded: at most `maxDocuments` documents and `maxDepth` index
 * levels, no document twice, no more bytes than `maxTotalBytes` in all, no more than the
 * protocol's 50,000 entries read from one document (an index: no more than can still be
 * fetched), and it stops early once `enough()` says the map has what it needs. A sitemap that
 * fails or is not one is skipped: the others still count.
 *
 * Entries reach `onUrls` in slices of at most URLS_PER_CALL, with the event loop given a turn
 * between slices when one ran long: a caller's work per URL (parse, scope, dedupe) over
 * 50,000 entries would otherwise hold the loop for a second.
 */
import type { DocumentFetcher } from '../scrape/net/http-client.js';
import { eventLoopSlices } from './event-loop-slices.js';
import { MAX_SITEMAP_ENTRIES, readSitemap } from './sitemap-document.js';

/** URLs handed to `onUrls` at once. */
const URLS_PER_CALL = 100;

export interface SitemapCrawlLimits {
  /** Sitemap documents read at most, indexes included. */
  maxDocuments: number;
  /** Index levels followed below the declared sitemaps. */
  maxDepth: number;
  /** Bytes read by all sitemap documents together (decompressed). */
  maxTotalBytes: number;
  /** Largest document, on the wire and inflated. */
  maxDocumentBytes: number;
  /** Documents fetched at once. */
  concurrency: number;
}

export interface SitemapCrawl {
  fetcher: DocumentFetcher;
  signal: AbortSignal;
  languages: readonly string[];
  limits: SitemapCrawlLimits;
  /** Takes each sitemap's page URLs, in the order sitemaps were found, a slice at a time. */
  onUrls(urls: string[]): void;
  /** True once the map has enough links: no further sitemap is read. */
  enough(): boolean;
  /** Called for every document that got an HTTP answer (the site is reachable). */
  onAnswer(): void;
}

interface Pending {
  url: string;
  depth: number;
}

export async function crawlSitemaps(seeds: readonly string[], crawl: SitemapCrawl): Promise<void> {
  const { limits, signal } = crawl;
  const seen = new Set<string>();
  let level: Pending[] = [];
  const enqueue = (into: Pending[], url: string, depth: number) => {
    if (seen.has(url) || seen.size >= limits.maxDocuments) return;
    seen.add(url);
    into.push({ url, depth });
  };
  for (const url of seeds) enqueue(level, url, 0);
  let bytes = 0;
  const stop = () => signal.aborted || crawl.enough() || bytes >= limits.maxTotalBytes;
  const slices = eventLoopSlices();

  // Level by level; within a level, pages are handed on in the sitemaps' order as soon as
  // every sitemap before them is read, so `enough()` can stop the crawl midway.
  while (level.length > 0 && !stop()) {
    const current = level;
    const done: (string[] | null | undefined)[] = new Array(current.length);
    const nested: (string[] | undefined)[] = [];
    let cursor = 0;
    let emitted = 0;
    // One flush at a time: workers that finish while another flushes wait their turn, so
    // pages keep the sitemaps' order across the pauses.
    let flushing = Promise.resolve();
    const flushNow = async () => {
      while (emitted < current.length && done[emitted] !== undefined) {
        const urls = done[emitted] ?? [];
        emitted += 1;
        for (let at = 0; at < urls.length && !stop(); at += URLS_PER_CALL) {
          crawl.onUrls(urls.slice(at, at + URLS_PER_CALL));
          if (slices.due()) await slices.pause();
        }
      }
    };
    const flush = () => {
      flushing = flushing.then(flushNow);
      return flushing;
    };
    const worker = async () => {
      while (cursor < current.length && !stop()) {
        const index = cursor++;
        const item = current[index] as Pending;
        // An index lists no more sitemaps than can still be read.
        const maxIndexEntries = Math.max(0, limits.maxDocuments - seen.size);
        const found = await readOne(item.url, crawl, maxIndexEntries).catch(() => null);
        bytes += found?.bytes ?? 0;
        const doc = found?.doc;
        done[index] = doc?.kind === 'urlset' ? doc.urls : null;
        if (doc?.kind === 'index' && item.depth < limits.maxDepth) nested[index] = doc.sitemaps;
        await flush();
      }
    };
    await Promise.all(Array.from({ length: limits.concurrency }, worker));
    const next: Pending[] = [];
    for (const [index, sitemaps] of nested.entries()) {
      const depth = (current[index] as Pending).depth + 1;
      for (const url of sitemaps ?? []) enqueue(next, url, depth);
    }
    level = next;
  }
}

async function readOne(url: string, crawl: SitemapCrawl, maxIndexEntries: number) {
  const document = await crawl.fetcher.get(url, {
    signal: crawl.signal,
    languages: crawl.languages,
  });
  crawl.onAnswer();
  if (document.status >= 400) return null;
  const doc = await readSitemap(document.body, document.contentType, {
    maxBytes: crawl.limits.maxDocumentBytes,
    maxEntries: MAX_SITEMAP_ENTRIES,
    maxIndexEntries,
    signal: crawl.signal,
  });
  return { doc, bytes: document.body.length };
}
