/**
 * Crawls (issue 16) against Crawlee on the same loopback site, in one run:
 *   npm run build && node --import tsx bench/crawl.ts
 *     [--pages 10000] [--concurrency 8] [--render-pages 500] [--render-concurrency 4]
 *     [--modes fetch,render]
 *
 * - fetch: a link tree of --pages pages (a few paragraphs each, test/helpers/crawl-site.ts),
 *   crawled by pagegrab through the SDK's startCrawl (Markdown, maxAge 0, proxy basic: the
 *   pages are fetched, render=false) with maxConcurrency and CRAWL_HOST_CONCURRENCY at
 *   --concurrency, then by Crawlee's CheerioCrawler at the same concurrency. Targets: pages/s
 *   ratio >= 1.0; the service's RSS flat (within 10%) between 2,000 pages and the end.
 * - render: --render-pages pages rendered (`waitFor: 1` makes the door render) against
 *   Crawlee's PlaywrightCrawler on the same Chromium, at --render-concurrency (BROWSER_PAGES
 *   is 4). Target: ratio >= 1.5.
 *
 * The site, the service and Crawlee each run in their own process; the service is the built
 * one (bench/lib/servers.ts), started fresh for each mode. The machine is shared: the load
 * average is printed with each figure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { startChildServer } from './lib/child-server.js';
import { loadAverage } from './lib/load.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    'render-pages': { type: 'string', default: '500' },
    'render-concurrency': { type: 'string', default: '4' },
    modes: { type: 'string', default: 'fetch,render' },
  },
});

const rssMiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function pagegrabCrawl(siteUrl: string, pages: number, concurrency: number, render: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crawl-bench-'));
  Object.assign(process.env, {
    CRAWL_HOST_CONCURRENCY: String(concurrency),
    BATCH_SCRAPE_CONCURRENCY: String(concurrency),
    JOB_POLL_MS: '20',
    BENCH_LOG_LEVEL: 'warn',
    BENCH_WARM: render ? '1' : '0',
  });
  const service = await startChildServer('service', [dataDir]);
  try {
    const fc = new Firecrawl({ apiKey: service.apiKey as string, apiUrl: service.url });
    const started = performance.now();
    const crawl = await fc.startCrawl(`${siteUrl}/`, {
      scrapeOptions: {
        formats: ['markdown'],
        maxAge: 0,
        proxy: 'basic',
        ...(render ? { waitFor: 1 } : {}),
      },
      limit: pages,
      maxConcurrency: concurrency,
      sitemap: 'skip',
    });
    // RSS sampled every poll; each point is the median of the samples from it to 500 pages
    // later, so one sample taken just before or after a collection does not decide.
    const samples: { completed: number; rss: number }[] = [];
    let peak = 0;
    let completed = 0;
    for (;;) {
      const answer = await fetch(`${service.url}/v2/crawl/${crawl.id}?limit=1`, {
        headers: { authorization: `Bearer ${service.apiKey}` },
      });
      const body = (await answer.json()) as { status: string; completed: number };
      completed = body.completed;
      const rss = rssMiB(service.pid);
      peak = Math.max(peak, rss);
      samples.push({ completed, rss });
      if (body.status !== 'scraping') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const medianRss = (from: number, to: number) => {
      const window = samples
        .filter((x) => x.completed >= from && x.completed <= to)
        .map((x) => x.rss)
        .sort((a, b) => a - b);
      return window.length > 0 ? (window[Math.floor(window.length / 2)] as number) : null;
    };
    return {
      pages: completed,
      seconds,
      rssAt2000: medianRss(2000, 2500),
      rssEnd: medianRss(completed - 500, completed) ?? rssMiB(service.pid),
      peak,
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function crawleeCrawl(
  mode: 'cheerio' | 'playwright',
  url: string,
  concurrency: number,
  max: number,
) {
  return new Promise<{ pages: number; seconds: number }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'lib', 'crawlee-run.ts'),
        mode,
        `${url}/`,
        String(concurrency),
        String(max),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`crawlee exited ${code}: ${out}`));
      else resolve(JSON.parse(line));
    });
  });
}

const modes = String(values.modes).split(',');
if (modes.includes('fetch')) {
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const site = await startChildServer('crawl-site', [String(pages - 1)]);
  const ours = await pagegrabCrawl(site.url, pages, concurrency, false);
  const theirs = await crawleeCrawl('cheerio', site.url, concurrency, pages);
  await site.stop();
  const rate = (r: { pages: number; seconds: number }) => r.pages / r.seconds;
  console.log(
    `fetch, ${pages} pages, concurrency ${concurrency}: pagegrab ${ours.pages} pages in ${ours.seconds.toFixed(1)} s (${rate(ours).toFixed(1)}/s); CheerioCrawler ${theirs.pages} in ${theirs.seconds.toFixed(1)} s (${rate(theirs).toFixed(1)}/s); ratio ${(rate(ours) / rate(theirs)).toFixed(2)}; load ${loadAverage()}`,
  );
  const drift = ours.rssAt2000 ? (ours.rssEnd - ours.rssAt2000) / ours.rssAt2000 : Number.NaN;
  console.log(
    `service RSS (median over the next 500 pages): ${ours.rssAt2000?.toFixed(0)} MiB at 2,000 pages, ${ours.rssEnd.toFixed(0)} MiB at the last 500 of ${ours.pages} (${(drift * 100).toFixed(1)}%), peak ${ours.peak.toFixed(0)} MiB`,
  );
}
if (modes.includes('render')) {
  const pages = Number(values['render-pages']);
  const concurrency = Number(values['render-concurrency']);
  const site = await startChildServer('crawl-site', [String(pages - 1)]);
  const ours = await pagegrabCrawl(site.url, pages, concurrency, true);
  const theirs = await crawleeCrawl('playwright', site.url, concurrency, pages);
  await site.stop();
  const rate = (r: { pages: number; seconds: number }) => r.pages / r.seconds;
  console.log(
    `render, ${pages} pages, concurrency ${concurrency}: pagegrab ${ours.pages} in ${ours.seconds.toFixed(1)} s (${rate(ours).toFixed(2)}/s); PlaywrightCrawler ${theirs.pages} in ${theirs.seconds.toFixed(1)} s (${rate(theirs).toFixed(2)}/s); ratio ${(rate(ours) / rate(theirs)).toFixed(2)}; load ${loadAverage()}`,
  );
}
process.exit(0);
