/**
 * GET /api/scraper?render=true on the real service (a child `pagegrab serve`, its own
 * process so its CPU is measured apart from this client) against the bare Playwright loop
 * (bench/scrape-render-bare.ts: same Chromium and flags, a new context per request) on the
 * same local page, at several concurrencies; plus the route's screenshot and markdown
 * variants. Target (issue 4): route html throughput >= 1.5x the bare loop (floor 0.9x).
 *   node --import tsx bench/scrape-render.ts [requests per cell, 40] [concurrencies, 1,2,4]
 *   ... --guard  instead: the browser engine in this process, html renders, without the SSRF
 *                guard (ALLOW_PRIVATE_NETWORKS=true) against with it forced on (the route
 *                checks and the guard proxy, with 127.0.0.1 classified as allowed)
 *
 * CPU: user+system of the live process trees, reaped children included (treeCpuSeconds),
 * read before any browser closes; the route's Node share is the service process tree minus
 * its Chromium. The service runs with ALLOW_PRIVATE_NETWORKS=true (the page
 * is on 127.0.0.1), so the per-host SSRF lookup is not in these figures.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { isPublicAddress } from '../src/scrape/net/address-policy.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../src/scrape/params/index.js';
import {
  percentile,
  runBareBaseline,
  serveBenchPage,
  treeCpuSeconds as treeCpu,
} from './scrape-render-bare.js';

type Variant = 'html' | 'screenshot' | 'markdown';
const VARIANT_PARAMS: Record<Variant, Record<string, string>> = {
  html: {},
  screenshot: { screenshot: 'true' },
  markdown: { markdown: 'true' },
};
const CLI = ['--import', 'tsx', join(import.meta.dirname, '../src/cli/main.ts')];
/** A built service's command line: another build's dist/ (e.g. a peer before a change). */
const distCli = (dist: string) => [join(dist, 'cli/main.js')];

interface Cell {
  name: string;
  concurrency: number;
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  /** CPU seconds per request: Chromium tree, and the Node process that drives it. */
  chromiumCpu: number;
  nodeCpu: number;
  load1: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Service {
  base: string;
  apiKey: string;
  child: ChildProcess;
  chromiumPids(): Promise<number[]>;
  stop(): Promise<void>;
}

async function startService(cli: string[] = CLI): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-bench-'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
  };
  const create = spawnSync(
    process.execPath,
    [...cli, 'accounts', 'create', '--name', 'bench', '--credits', '100000000', '--json'],
    { env, encoding: 'utf8' },
  );
  if (create.status !== 0) throw new Error(`accounts create failed: ${create.stderr}`);
  const { apiKey } = JSON.parse(create.stdout.trim().split('\n').at(-1) ?? '{}');
  const child = spawn(process.execPath, [...cli, 'serve'], { env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const chromiumPids = async (): Promise<number[]> => {
    const body = (await (await fetch(`${base}/readyz`)).json()) as { browser: { pids: number[] } };
    return body.browser.pids;
  };
  for (let tries = 0; ; tries += 1) {
    const pids = await chromiumPids().catch(() => []);
    if (pids.length > 0) break;
    if (tries > 300 || child.exitCode !== null) throw new Error('the service did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    apiKey,
    child,
    chromiumPids,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `count` calls of `one`, `c` at a time (each worker starts its next when one ends). */
async function closedLoop(
  one: () => Promise<number>,
  c: number,
  count: number,
  latencies: number[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < count) {
        next += 1;
        latencies.push(await one());
      }
    }),
  );
}

async function routeCell(s: Service, url: string, variant: Variant, n: number, c: number) {
  const query = new URLSearchParams({ api_key: s.apiKey, url, render: 'true' });
  for (const [k, v] of Object.entries(VARIANT_PARAMS[variant])) query.set(k, v);
  const one = async (): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${s.base}/api/scraper?${query}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${variant}: status ${res.status}`);
    return performance.now() - started;
  };
  const loop = (count: number, latencies: number[]) => closedLoop(one, c, count, latencies);
  await loop(2 * c, []); // warm-up: every page slot has a warm page
  const [pid] = await s.chromiumPids();
  const service0 = treeCpu(s.child.pid ?? 0);
  const chromium0 = treeCpu(pid ?? 0);
  const latencies: number[] = [];
  const t0 = performance.now();
  await loop(n, latencies);
  const seconds = (performance.now() - t0) / 1000;
  const chromium = treeCpu(pid ?? 0) - chromium0;
  const total = treeCpu(s.child.pid ?? 0) - service0;
  if ((await s.chromiumPids())[0] !== pid) console.warn('  (the browser was replaced mid-cell)');
  latencies.sort((a, b) => a - b);
  return cellOf(`route ${variant}`, c, n, seconds, latencies, chromium, total - chromium);
}

function cellOf(
  name: string,
  concurrency: number,
  n: number,
  seconds: number,
  sorted: number[],
  chromium: number,
  node: number,
): Cell {
  return {
    name,
    concurrency,
    reqPerSec: n / seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    chromiumCpu: chromium / n,
    nodeCpu: node / n,
    load1: loadavg()[0] ?? 0,
  };
}

/** Node CPU seconds of one bare-loop run (its Chromium CPU is measured inside, live). */
async function bareRun(url: string, n: number, c: number) {
  const self0 = process.cpuUsage();
  const result = await runBareBaseline(url, n, c);
  const self = process.cpuUsage(self0);
  return { result, node: (self.user + self.system) / 1e6 };
}

/**
 * The bare loop's figures. Its Chromium CPU excludes launch and warm-up; its Node CPU is
 * taken by difference against a run of one request, which has the same launch and close.
 */
async function bareCell(url: string, n: number, c: number): Promise<Cell> {
  const base = await bareRun(url, 1, 1);
  const { result, node } = await bareRun(url, n, c);
  return {
    name: 'bare html',
    concurrency: c,
    reqPerSec: result.reqPerSec,
    p50Ms: result.p50Ms,
    p95Ms: result.p95Ms,
    chromiumCpu: result.chromiumCpuSecPerRequest,
    nodeCpu: (node - base.node) / (n - 1),
    load1: loadavg()[0] ?? 0,
  };
}

function line(cell: Cell): string {
  const cpu = cell.chromiumCpu + cell.nodeCpu;
  return (
    `${cell.name.padEnd(17)} c=${cell.concurrency}  ${cell.reqPerSec.toFixed(2).padStart(6)} req/s` +
    `  p50 ${cell.p50Ms.toFixed(0).padStart(5)} ms  p95 ${cell.p95Ms.toFixed(0).padStart(5)} ms` +
    `  CPU/req ${cpu.toFixed(3)} s (chromium ${cell.chromiumCpu.toFixed(3)}, node ${cell.nodeCpu.toFixed(3)})` +
    `  load1 ${cell.load1.toFixed(2)}`
  );
}

/** html renders on an in-process engine, with or without the SSRF guard (see --guard). */
async function engineCell(url: string, guarded: boolean, n: number, c: number): Promise<Cell> {
  const engine = createBrowserEngine({
    allowPrivateNetworks: !guarded,
    maxConcurrentPages: Math.max(c, 4),
    // The bench page is on 127.0.0.1: allowed here so that the guard checks and passes it.
    guard: { isAllowedAddress: (ip) => ip === '127.0.0.1' || isPublicAddress(ip) },
  });
  const one = async (): Promise<number> => {
    const started = performance.now();
    const timeoutMs = 30_000;
    await engine.render({
      options: { ...DEFAULT_SCRAPE_OPTIONS, url, render: true, timeoutMs },
      engine: 'browser',
      output: 'html',
      block: null,
      proxies: [],
      isolationKey: 'bench',
      deadline: Date.now() + timeoutMs,
      signal: new AbortController().signal,
    });
    return performance.now() - started;
  };
  const loop = (count: number, latencies: number[]) => closedLoop(one, c, count, latencies);
  try {
    await loop(2 * c, []);
    const [pid] = engine.status().pids;
    const chromium0 = treeCpu(pid ?? 0);
    const node0 = process.cpuUsage();
    const latencies: number[] = [];
    const t0 = performance.now();
    await loop(n, latencies);
    const seconds = (performance.now() - t0) / 1000;
    const node = process.cpuUsage(node0);
    const chromium = treeCpu(pid ?? 0) - chromium0;
    latencies.sort((a, b) => a - b);
    const name = guarded ? 'engine guarded' : 'engine unguarded';
    return cellOf(name, c, n, seconds, latencies, chromium, (node.user + node.system) / 1e6);
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--guard')) {
  const [n = 40, concurrencies = '1,2,4'] = process.argv.slice(2).filter((a) => a !== '--guard');
  const page = await serveBenchPage();
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  console.log(`${n} html renders per cell after a warm-up, in-process engine; page ${page.url}`);
  try {
    for (const c of String(concurrencies).split(',').map(Number)) {
      for (const guarded of [false, true]) {
        console.log(line(await engineCell(page.url, guarded, Number(n), c)));
      }
    }
  } finally {
    await page.close();
  }
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
} else if (
  import.meta.url === `file://${process.argv[1]}` &&
  process.argv.includes('--peer-dist')
) {
  await peerRun();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 40);
  const concurrencies = (process.argv[3] ?? '1,2,4').split(',').map(Number);
  const page = await serveBenchPage();
  const service = await startService();
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  console.log(`${n} requests per cell after a warm-up; page ${page.url}`);
  const ratios: string[] = [];
  try {
    for (const c of concurrencies) {
      const bare = await bareCell(page.url, n, c);
      console.log(line(bare));
      const cells: Cell[] = [];
      for (const variant of ['html', 'screenshot', 'markdown'] as const) {
        cells.push(await routeCell(service, page.url, variant, n, c));
        console.log(line(cells.at(-1) as Cell));
      }
      const html = cells[0] as Cell;
      ratios.push(`c=${c}: ${(html.reqPerSec / bare.reqPerSec).toFixed(2)}x`);
    }
  } finally {
    await service.stop();
    await page.close();
  }
  console.log(`route html / bare throughput: ${ratios.join(', ')} (target >= 1.5x, floor 0.9x)`);
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
}

/**
 * `--peer-dist DIR [--dist DIR]`: route html against the bare loop for this tree's build
 * (dist/, `node scripts/build.mjs` first) and a peer build, both services running at once
 * and their cells alternating over the rounds, so that the machine's load hits all three
 * alike. Prints each round and the medians of route/bare for each build.
 *   node --import tsx bench/scrape-render.ts 20 1 --peer-dist /work/wt/peer33/dist --rounds 3
 */
async function peerRun(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'peer-dist': { type: 'string' },
      dist: { type: 'string', default: join(import.meta.dirname, '../dist') },
      rounds: { type: 'string', default: '3' },
    },
  });
  const n = Number(positionals[0] ?? 20);
  const concurrencies = (positionals[1] ?? '1').split(',').map(Number);
  const page = await serveBenchPage();
  const builds = {
    this: await startService(distCli(values.dist)),
    peer: await startService(distCli(values['peer-dist'] ?? '')),
  };
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  console.log(`${n} requests per cell; this ${values.dist}, peer ${values['peer-dist']}`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  try {
    for (const c of concurrencies) {
      const ratios = { this: [] as number[], peer: [] as number[] };
      for (let round = 0; round < Number(values.rounds); round++) {
        const bare = await bareCell(page.url, n, c);
        console.log(line(bare));
        // Alternating which goes first: a load that rises or falls during a round hits both.
        const order = round % 2 === 0 ? (['this', 'peer'] as const) : (['peer', 'this'] as const);
        for (const name of order) {
          const cell = await routeCell(builds[name], page.url, 'html', n, c);
          console.log(line({ ...cell, name: `${name} html` }));
          ratios[name].push(cell.reqPerSec / bare.reqPerSec);
        }
      }
      console.log(
        `c=${c} medians of route html / bare: this ${median(ratios.this).toFixed(2)}x, peer ${median(ratios.peer).toFixed(2)}x`,
      );
    }
  } finally {
    await builds.this.stop();
    await builds.peer.stop();
    await page.close();
  }
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
}
