/**
 * One Crawlee crawl of a loopback site, in its own process (bench/crawl.ts compares it with
 * pagegrab's): CheerioCrawler (plain fetches) or PlaywrightCrawler (rendered, on the Debian
 * Chromium through playwright-core: no browser download), at a fixed concurrency (min = max,
 * so Crawlee's autoscaling does not shrink it on a busy machine), following same-host links,
 * its storage as Crawlee keeps it by default (on disk, in a temp CRAWLEE_STORAGE_DIR).
 *   node --import tsx bench/lib/crawlee-run.ts <cheerio|playwright> <url> <concurrency> <max>
 * Prints one JSON line: {"pages", "seconds"}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [mode, url, concurrencyArg, maxArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg ?? 8);
const max = Number(maxArg ?? 10_000);
const storage = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
process.env.CRAWLEE_STORAGE_DIR = storage;
process.env.CRAWLEE_LOG_LEVEL = 'WARNING';
const { CheerioCrawler, PlaywrightCrawler } = await import('crawlee');

let pages = 0;
const common = {
  minConcurrency: concurrency,
  maxConcurrency: concurrency,
  maxRequestsPerCrawl: max,
  maxRequestRetries: 1,
};
const started = performance.now();
if (mode === 'cheerio') {
  const crawler = new CheerioCrawler({
    ...common,
    async requestHandler({ $, enqueueLinks }) {
      if ($('title').text() !== '') pages++;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  });
  await crawler.run([url as string]);
} else {
  const crawler = new PlaywrightCrawler({
    ...common,
    launchContext: {
      launcher: chromium,
      launchOptions: { executablePath: '/usr/lib/chromium/chromium', headless: true },
    },
    async requestHandler({ page, enqueueLinks }) {
      if ((await page.title()) !== '') pages++;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  });
  await crawler.run([url as string]);
}
const seconds = (performance.now() - started) / 1000;
rmSync(storage, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ pages, seconds })}\n`);
process.exit(0);
