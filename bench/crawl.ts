/**
 * Crawls (issue 16) against Crawlee on the same loopback site, in one run:
 *   npm run build && node --import tsx bench/crawl.ts
 *     [--pages 10000] [--concurrency 8] [--render-pages 500] [--render-concurrency 4]
 *     [--modes fetch,render] [--rounds 2] [--render-block-ads off|on]
 *
 * - fetch: a link tree of --pages pages (a few paragraphs each, test/helpers/crawl-site.ts),
 *   crawled by pagegrab through the SDK's startCrawl (Markdown, maxAge 0, proxy basic: the
 *   pages are fetched, render=false) with maxConcurrency and CRAWL_HOST_CONCURRENCY at
 *   --concurrency, then by Crawlee's CheerioCrawler at the same concurrency. Targets: pages/s
 *   ratio >= 1.0; the service's RSS flat (within 10%) between 2,000 pages and the end.
 * - render: --render-pages pages rendered (`waitFor: 1` makes the door render) against
 *   Crawlee's PlaywrightCrawler on the same Chromium, at --render-concurrency (BROWSER_PAGES
 *   is 4). Target: ratio >= 1.5. --render-block-ads (default off): the door's `blockAds`,
 *   on by Firecrawl's default; PlaywrightCrawler blocks nothing, so off is like for like
 *   (on, each render also waits for the consent rejector's quiet period, ~1.5-3 s).
 *
 * The site, the service and Crawlee each run in their own process; the service is the built
 * one (bench/lib/servers.ts), started fresh (empty DATA_DIR) for each crawl. Each mode runs
 * --rounds rounds; a round crawls the whole site with both arms, their order alternating
 * from round to round, so the drift of a shared machine falls on both; each ratio is taken
 * within its round, and the median and range over rounds are printed. The load average is
 * printed with each figure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { startChildServer } from './lib/child-server.js';
import { loadAverage } from './lib/load.js';
import { machineCpuSeconds } from './lib/machine-cpu.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    'render-pages': { type: 'string', default: '500' },
    'render-concurrency': { type: 'string', default: '4' },
    modes: { type: 'string', default: 'fetch,render' },
    rounds: { type: 'string', default: '2' },
    'render-block-ads': { type: 'string', default: 'off' },
    'memory-detail': { type: 'boolean', default: false },
  },
});

/** One numeric field of a process's /proc status (kB for the memory fields). */
const procStatus = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
};
const rssMiB = (pid: number) => procStatus(pid)('VmRSS') / 1024;

/**
 * --memory-detail: where the service's memory is, from its /proc status and its /metrics
 * (the main thread's heap by space, external memory), to tell garbage from held data.
 */
async function memoryDetail(url: string, pid: number): Promise<string> {
  const field = procStatus(pid);
  const kb = (name: string) => field(name) / 1024;
  const text = await (await fetch(`${url}/metrics`)).text();
  const metric = (name: string, label = '') => {
    const line = text.split('\n').find((l) => l.startsWith(`pagegrab_${name}${label}`));
    return Number(line?.split(' ').at(-1) ?? 0) / 2 ** 20;
  };
  const space = (which: string, kind: string) =>
    metric(`nodejs_heap_space_size_${kind}_bytes`, `{space="${which}"}`);
  const mib = (x: number) => x.toFixed(0);
  return [
    `rss ${mib(kb('VmRSS'))} (anon ${mib(kb('RssAnon'))}, file ${mib(kb('RssFile'))}), threads ${field('Threads')}`,
    `main heap used ${mib(metric('nodejs_heap_size_used_bytes'))} of ${mib(metric('nodejs_heap_size_total_bytes'))}`,
    `old ${mib(space('old', 'used'))}/${mib(space('old', 'total'))}, new ${mib(space('new', 'used'))}/${mib(space('new', 'total'))}, large ${mib(space('large_object', 'used'))}/${mib(space('large_object', 'total'))}, code ${mib(space('code', 'used'))}`,
    `external ${mib(metric('nodejs_external_memory_bytes'))}`,
  ].join('; ');
}

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
        ...(render ? { waitFor: 1, blockAds: values['render-block-ads'] === 'on' } : {}),
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
    let detailed = 0;
    for (;;) {
      const answer = await fetch(`${service.url}/v2/crawl/${crawl.id}?limit=1`, {
        headers: { authorization: `Bearer ${service.apiKey}` },
      });
      const body = (await answer.json()) as { status: string; completed: number };
      completed = body.completed;
      const rss = rssMiB(service.pid);
      peak = Math.max(peak, rss);
      samples.push({ completed, rss });
      if (values['memory-detail'] && Math.floor(completed / 500) > detailed) {
        detailed = Math.floor(completed / 500);
        console.log(`  ${completed} pages: ${await memoryDetail(service.url, service.pid)}`);
      }
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
      // The curve: the median at every 1,000 pages, to see a drift or a step.
      rssCurve: Array.from({ length: Math.floor(completed / 1000) }, (_, k) =>
        medianRss(k * 1000, k * 1000 + 500),
      ),
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

type Rate = { pages: number; seconds: number };
const rate = (r: Rate) => r.pages / r.seconds;
const median = (xs: number[]) => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Both arms over the whole site, --rounds times, pagegrab first in odd rounds and second in
 * even ones; per round the ratio of pages/s, then the median and range.
 */
async function compare(
  mode: 'fetch' | 'render',
  pages: number,
  concurrency: number,
  peer: 'cheerio' | 'playwright',
) {
  const rounds = Number(values.rounds);
  const site = await startChildServer('crawl-site', [String(pages - 1)]);
  const ratios: number[] = [];
  const digits = mode === 'fetch' ? 1 : 2;
  for (let round = 0; round < rounds; round++) {
    let ours: Awaited<ReturnType<typeof pagegrabCrawl>> | null = null;
    let theirs: Rate | null = null;
    const order = round % 2 === 0 ? ['pagegrab', peer] : [peer, 'pagegrab'];
    for (const arm of order) {
      const cpu0 = machineCpuSeconds();
      if (arm === 'pagegrab')
        ours = await pagegrabCrawl(site.url, pages, concurrency, mode === 'render');
      else theirs = await crawleeCrawl(peer, site.url, concurrency, pages);
      console.log(
        `[${mode} round ${round + 1}] ${arm}: ${arm === 'pagegrab' ? ours?.pages : theirs?.pages} pages, ${(arm === 'pagegrab' ? rate(ours as Rate) : rate(theirs as Rate)).toFixed(digits)}/s, machine CPU ${(((machineCpuSeconds() - cpu0) * 1000) / ((arm === 'pagegrab' ? ours?.pages : theirs?.pages) ?? 1)).toFixed(1)} ms/page, load ${loadAverage()}`,
      );
    }
    if (!ours || !theirs) throw new Error('an arm did not run');
    const ratio = rate(ours) / rate(theirs);
    ratios.push(ratio);
    console.log(
      `${mode} round ${round + 1}, ${pages} pages, concurrency ${concurrency}: pagegrab ${ours.pages} pages in ${ours.seconds.toFixed(1)} s (${rate(ours).toFixed(digits)}/s); ${peer} ${theirs.pages} in ${theirs.seconds.toFixed(1)} s (${rate(theirs).toFixed(digits)}/s); ratio ${ratio.toFixed(2)}`,
    );
    if (mode === 'fetch') {
      const drift = ours.rssAt2000 ? (ours.rssEnd - ours.rssAt2000) / ours.rssAt2000 : Number.NaN;
      console.log(
        `  service RSS (median over the next 500 pages): ${ours.rssAt2000?.toFixed(0)} MiB at 2,000 pages, ${ours.rssEnd.toFixed(0)} MiB at the last 500 of ${ours.pages} (${(drift * 100).toFixed(1)}%), peak ${ours.peak.toFixed(0)} MiB; every 1,000 pages: ${ours.rssCurve.map((x) => x?.toFixed(0) ?? '-').join(' ')}`,
      );
    }
  }
  await site.stop();
  const setting = mode === 'render' ? `, blockAds ${values['render-block-ads']}` : '';
  console.log(
    `${mode}${setting}: ratio median ${median(ratios).toFixed(2)} (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) over ${rounds} rounds; load ${loadAverage()}`,
  );
}

const modes = String(values.modes).split(',');
if (modes.includes('fetch')) {
  await compare('fetch', Number(values.pages), Number(values.concurrency), 'cheerio');
}
if (modes.includes('render')) {
  await compare(
    'render',
    Number(values['render-pages']),
    Number(values['render-concurrency']),
    'playwright',
  );
}
process.exit(0);
