/**
 * The bare Playwright baseline the route is compared against: same Chromium and flags, a new
 * context per request, goto until `load`, content(), close. No pool logic, no policy.
 *   node --import tsx bench/scrape-render-bare.ts [url] [requests] [concurrency]
 * Without a url it serves a small page on 127.0.0.1 itself.
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { DEFAULTS } from '../src/config.js';
import {
  browserPids,
  CHROMIUM_ARGS,
  processTree,
} from '../src/scrape/engines/browser/chromium-process.js';

export interface BareResult {
  requests: number;
  concurrency: number;
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  /** Chromium CPU seconds (user+system, whole process tree) per request. */
  chromiumCpuSecPerRequest: number;
}

/**
 * CPU seconds used so far by a live process tree: utime+stime of every process, plus
 * cutime+cstime (children already exited and reaped). A context's renderer exits when the
 * context closes, and its time then survives only in the reaping parent's cutime: without
 * it, a new-context-per-request loop showed about half its real Chromium CPU. Read it before
 * closing the browser: the zygotes' counters are lost when they exit.
 */
export function treeCpuSeconds(rootPid: number): number {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // exited
    }
  }
  return ticks / 100;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runBareBaseline(
  url: string,
  requests: number,
  concurrency: number,
  executablePath = DEFAULTS.chromiumPath,
): Promise<BareResult> {
  const before = new Set(browserPids(executablePath));
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
  const pid = browserPids(executablePath).find((p) => !before.has(p)) ?? 0;
  const one = async (): Promise<number> => {
    const started = performance.now();
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.content();
    await context.close();
    return performance.now() - started;
  };
  await one(); // warm-up
  const cpu0 = treeCpuSeconds(pid);
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        latencies.push(await one());
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(pid) - cpu0;
  await browser.close();
  latencies.sort((a, b) => a - b);
  return {
    requests,
    concurrency,
    reqPerSec: requests / seconds,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    chromiumCpuSecPerRequest: cpu / requests,
  };
}

/** A small page with a script, a stylesheet and an image, on 127.0.0.1. */
export async function serveBenchPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>bench</title><link rel="stylesheet" href="/s.css">
        <h1>Bench</h1><p id="p"></p><img src="/i.svg">
        <script>document.getElementById('p').textContent = 'rendered ' + Date.now();</script>`);
    } else if (req.url === '/s.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end('h1 { color: #333 }');
    } else {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [argUrl, n = '100', c = '4'] = process.argv.slice(2);
  const served = argUrl && argUrl !== '-' ? null : await serveBenchPage();
  const result = await runBareBaseline(served?.url ?? argUrl!, Number(n), Number(c));
  console.log(JSON.stringify(result, null, 2));
  await served?.close();
}
