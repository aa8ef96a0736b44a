/**
 * The browser engine at a concurrency, in both isolation designs: warm pages reset between
 * requests (pageReuseLimit 50, the default) and a fresh context per request
 * (pageReuseLimit 1), next to the bare baseline.
 *   node --import tsx bench/render-engine-compare.ts [requests] [concurrency]
 */
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../src/scrape/params/index.js';
import type { ScrapeRun } from '../src/scrape/types.js';
import {
  percentile,
  runBareBaseline,
  serveBenchPage,
  treeCpuSeconds,
} from './scrape-render-bare.js';

export function benchPlan(url: string): ScrapeRun {
  return {
    options: { ...DEFAULT_SCRAPE_OPTIONS, url, render: true },
    engine: 'browser',
    output: 'html',
    block: null,
    proxies: [],
    isolationKey: 'bench',
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
  };
}

async function runEngine(
  url: string,
  n: number,
  c: number,
  pageReuseLimit: number,
  allowPrivate: boolean,
) {
  const engine = createBrowserEngine({
    allowPrivateNetworks: allowPrivate,
    maxConcurrentPages: c,
    pageReuseLimit,
    // Without ALLOW_PRIVATE_NETWORKS the SSRF guard (with the redirect interceptor) runs;
    // 127.0.0.1 is made "public" so the page loads.
    guard: { isAllowedAddress: (ip) => ip === '127.0.0.1' },
  });
  await engine.render(benchPlan(url));
  const pid = engine.status().pids[0]!;
  const cpu0 = treeCpuSeconds(pid);
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) {
        next += 1;
        const started = performance.now();
        await engine.render(benchPlan(url));
        latencies.push(performance.now() - started);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(pid) - cpu0;
  await engine.close();
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: n / seconds,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    chromiumCpuSecPerRequest: cpu / n,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n = '100', c = '4'] = process.argv.slice(2);
  const served = await serveBenchPage();
  const fmt = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([k, v]) => `${k}=${v.toFixed(k.includes('Cpu') ? 3 : 1)}`)
      .join(' ');
  console.log(
    'bare baseline          ',
    fmt((await runBareBaseline(served.url, Number(n), Number(c))) as never),
  );
  console.log(
    'engine, warm reset     ',
    fmt(await runEngine(served.url, Number(n), Number(c), 50, true)),
  );
  console.log(
    'engine, fresh context  ',
    fmt(await runEngine(served.url, Number(n), Number(c), 1, true)),
  );
  console.log(
    'engine, reset + SSRF   ',
    fmt(await runEngine(served.url, Number(n), Number(c), 50, false)),
  );
  console.log(
    'engine, fresh + SSRF   ',
    fmt(await runEngine(served.url, Number(n), Number(c), 1, false)),
  );
  await served.close();
}
