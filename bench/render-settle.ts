/**
 * The default render (`wait_until=settled`, issue 25) over every loading pattern of
 * test/helpers/loading-patterns.ts, through the native door of an in-process service:
 * per pattern, whether the answer is complete (marker in, placeholder out), the median
 * latency of a render and how long after the page's own `data-complete-at` the answer
 * arrived; then the throughput of default renders of the static page against
 * `wait_until=load`, in the same run, alternating rounds.
 *   node --import tsx bench/render-settle.ts [rounds per pattern, 5] [renders per throughput round, 40]
 */
import { type FixtureSite, startFixtureSite } from '../test/helpers/fixture-site.js';
import {
  addLoadingPatterns,
  completeAtOf,
  LOADING_PATTERNS,
} from '../test/helpers/loading-patterns.js';
import { startService, type TestService } from '../test/helpers/service.js';

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 40);
const CONCURRENCY = 4;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

async function render(service: TestService, site: FixtureSite, path: string, waitUntil?: string) {
  const query = new URLSearchParams({ url: site.url(path), render: 'true' });
  if (waitUntil) query.set('wait_until', waitUntil);
  const started = Date.now();
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  const html = await response.text();
  const ended = Date.now();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${html}`);
  return { html, started, ended };
}

async function throughput(service: TestService, site: FixtureSite, waitUntil: string) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < perRound) {
        next += 1;
        await render(service, site, '/patterns/static', waitUntil);
      }
    }),
  );
  return perRound / ((performance.now() - started) / 1000);
}

const site = await startFixtureSite();
addLoadingPatterns(site);
const service = await startService({ credits: 100_000_000, concurrencyLimit: 64 });
try {
  for (let i = 0; i < 2 * CONCURRENCY; i++) await render(service, site, '/patterns/static');
  console.log('pattern            complete  p50 ms  after complete p50 ms');
  let complete = 0;
  const lateness: number[] = [];
  for (const pattern of LOADING_PATTERNS) {
    const latencies: number[] = [];
    const after: number[] = [];
    let whole = true;
    for (let i = 0; i < rounds; i++) {
      const { html, started, ended } = await render(service, site, pattern.path);
      whole &&= html.includes(pattern.marker) && !html.includes(pattern.placeholder);
      latencies.push(ended - started);
      const at = completeAtOf(html);
      if (at !== null) after.push(ended - at);
    }
    if (whole) complete += 1;
    const late = median(after);
    if (!pattern.keepsBusy) lateness.push(late);
    console.log(
      `${pattern.name.padEnd(18)} ${String(whole).padEnd(9)} ${median(latencies).toFixed(0).padStart(6)}  ${late.toFixed(0).padStart(6)}`,
    );
  }
  console.log(`complete: ${complete}/${LOADING_PATTERNS.length}`);
  console.log(`median of the patterns' medians after complete (not busy): ${median(lateness)} ms`);
  const settled: number[] = [];
  const load: number[] = [];
  for (let i = 0; i < 3; i++) {
    settled.push(await throughput(service, site, 'settled'));
    load.push(await throughput(service, site, 'load'));
  }
  const s = median(settled);
  const l = median(load);
  console.log(
    `static page, concurrency ${CONCURRENCY}, ${perRound} renders x 3 rounds: settled ${s.toFixed(1)}/s, load ${l.toFixed(1)}/s, ratio ${(s / l).toFixed(2)}`,
  );
} finally {
  await service.close();
  await site.close();
}
