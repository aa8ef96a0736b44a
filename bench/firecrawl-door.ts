/**
 * The Firecrawl door against the native route on the same pages, in one run (issue 13):
 * Firecrawl's SDK `scrape(url, {formats: ['markdown'], maxAge: 0})` through POST /v2/scrape
 * against GET /api/scraper?url=..&markdown=true, with the same number in flight, on N article
 * pages of a loopback site, fetched (render=false) and rendered (render=true). Target: the
 * door >= 0.95x the native throughput.
 *   npm run build && node --import tsx bench/firecrawl-door.ts
 *     [--pages 50] [--concurrency 8] [--rounds 4] [--seconds 5] [--render-seconds 10]
 *     [--modes fetch,render] [--arms sdk,...]  (the native arms always run: ratios need them)
 *     [--profile DIR]  (the service under --cpu-prof into DIR, an empty folder; every thread's
 *     profile summarized at the end)
 *
 * The service is the built one (`pagegrab serve` as bench/lib/servers.ts starts it), the
 * site another child, this process only the clients, so the service's CPU is measured apart
 * (Node process; with rendering also its whole tree, Chromium included). Arms, per mode:
 * - native: GET /api/scraper (&render=true), its defaults (no blockers).
 * - native+blockers: the same with block_ads and block_cookie_banners, which the door turns
 *   on by default (Firecrawl's blockAds defaults to true): the same pipeline work as the door.
 * - native-axios, native+blockers-axios: the same two through the SDK's own HTTP client (its
 *   axios), the peers of the SDK's arms: the clients run in this process, on the same two
 *   cores as the service, so a peer on a lighter client would measure axios against undici.
 * - sdk: the SDK with the options above, nothing else: what a Firecrawl user gets (blockAds,
 *   proxy "auto", storeInCache true: every result is also written to the account's cache).
 * - sdk-no-blockers: the SDK with blockAds false: the same pipeline work as plain native.
 * - sdk-no-cache: the same with storeInCache: false.
 * - door-undici: the sdk arm's body POSTed with the natives' client, so the SDK's own cost
 *   (axios, in this process, on the same cores) is told apart from the door's.
 * Rendered arms of the door add `waitFor: 1`, the one option that makes the door render with
 * no other work than a 1 ms timer: `actions: [{type: 'scrape'}]` reads the page's HTML again
 * and sends it back in `actions.scrapes`, `mobile` changes the viewport and user agent, a
 * screenshot format adds a capture. The SDK runs with maxRetries 1 so no error hides in a retry.
 *
 * Each arm's ratio is against the native arm that does the same pipeline work (its peer:
 * native+blockers for the door's defaults, native for blockAds false), so the figure is the
 * door's own cost, not the blockers' a native caller did not ask for.
 * Rounds interleave the arms (the order rotates every round) to cancel the drift of a shared
 * machine; each ratio is taken within its round against that round's native arm, and the
 * median and range over rounds are printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { Pool } from 'undici';
import { printProfileSummary } from './lib/cpu-profile-summary.js';
import { cpuSeconds, loadAverage, percentile } from './lib/load.js';
import { treeCpuSeconds } from './scrape-render-bare.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    'render-seconds': { type: 'string', default: '10' },
    modes: { type: 'string', default: 'fetch,render' },
    arms: { type: 'string' },
    profile: { type: 'string' },
    site: { type: 'string' },
  },
});

// ---- the site: N article pages with enough text that the door fetches them ---------------

function articlePage(i: number): string {
  const paragraph = (k: number) =>
    `<p>Paragraph ${k} of article ${i}. The harbour master posts the tide tables every morning, and the pilots read them before the first ship comes in; a falling tide leaves the inner basin shallow for two hours. ${'Boats wait at the outer mooring until the water rises again. '.repeat(3)}</p>`;
  const sections = Array.from(
    { length: 4 },
    (_, s) =>
      `<h2>Section ${s + 1}</h2>${paragraph(2 * s)}${paragraph(2 * s + 1)}<ul><li>Item one of ${s}</li><li>Item two with <a href="/articles/${(i + s + 1) % 1000}">a link</a></li></ul>`,
  ).join('\n');
  const nav = Array.from({ length: 12 }, (_, n) => `<a href="/section/${n}">Section ${n}</a>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Article ${i}: tides</title><meta name="description" content="Article ${i} about tides">
<meta property="og:title" content="Article ${i}"><link rel="stylesheet" href="data:text/css,body{font-family:serif}">
</head><body><header><nav>${nav.join(' ')}</nav></header>
<main><article><h1>Article ${i}: reading the tides</h1><p class="byline">By the harbour office</p>
${sections}<blockquote>Time and tide wait for no one.</blockquote></article></main>
<aside><h3>Related</h3><a href="/articles/${(i + 7) % 1000}">More tides</a></aside>
<footer><p>Harbour office, ${i}</p><a href="/privacy">Privacy</a></footer></body></html>`;
}

// ---- children ----------------------------------------------------------------------------

interface Child {
  url: string;
  apiKey?: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a script of this folder as a child and waits for its `{"url"}` line on stderr. */
function startChild(nodeArgs: string[], script: string, args: string[]): Promise<Child> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(import.meta.dirname, script), ...args],
    // The service's request log goes to /dev/null, as in the other service benches.
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (!line.startsWith('{"url"')) return void process.stderr.write(`[${script}] ${line}\n`);
      resolve({
        ...(JSON.parse(line) as { url: string; apiKey?: string }),
        pid: child.pid as number,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

// ---- load --------------------------------------------------------------------------------

type Mode = 'fetch' | 'render';
type Send = (pageUrl: string) => Promise<boolean>;

type NativeArm = 'native' | 'native+blockers' | 'native-axios' | 'native+blockers-axios';

interface Arm {
  /**
   * The native arm doing the same pipeline work through the same HTTP client, whose
   * same-round throughput is the ratio's base.
   */
  peer: NativeArm;
  name: string;
  send: Send;
}

interface Sample {
  rps: number;
  requests: number;
  errors: number;
  p50Ms: number;
  /** Service CPU per request sent, ms: its Node process, and its whole tree. */
  nodeCpuMs: number;
  treeCpuMs: number;
  /** This process's CPU per request: the clients' own cost, on the same cores. */
  clientCpuMs: number;
}

/** A closed loop: `concurrency` workers, each sending the next page when its answer is in. */
async function drive(
  send: Send,
  pageUrls: readonly string[],
  concurrency: number,
  warmupMs: number,
  durationMs: number,
  servicePid: number,
): Promise<Sample> {
  let next = 0;
  let sent = 0;
  let errors = 0;
  const latencies: number[] = [];
  const cpu0 = cpuSeconds(servicePid);
  const tree0 = treeCpuSeconds(servicePid);
  const client0 = process.cpuUsage();
  const warmupEnd = Date.now() + warmupMs;
  const end = warmupEnd + durationMs;
  const worker = async () => {
    while (Date.now() < end) {
      const url = pageUrls[next++ % pageUrls.length] as string;
      const started = performance.now();
      const ok = await send(url).catch(() => false);
      sent++;
      const now = Date.now();
      if (now < warmupEnd || now > end) continue;
      if (ok) latencies.push(performance.now() - started);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const nodeCpuMs = ((cpuSeconds(servicePid) - cpu0) * 1000) / sent;
  const treeCpuMs = ((treeCpuSeconds(servicePid) - tree0) * 1000) / sent;
  const client = process.cpuUsage(client0);
  const clientCpuMs = (client.user + client.system) / 1000 / sent;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / (durationMs / 1000),
    requests: latencies.length,
    errors,
    p50Ms: percentile(latencies, 50),
    nodeCpuMs,
    treeCpuMs,
    clientCpuMs,
  };
}

/** The HTTP client the SDK itself uses (its own axios), for native arms on an equal footing. */
interface AxiosLike {
  create(config: { baseURL: string }): {
    get(path: string, config: { responseType: 'text' }): Promise<{ status: number; data: string }>;
  };
}
const sdkRequire = createRequire(createRequire(import.meta.url).resolve('@mendable/firecrawl-js'));
const sdkAxios = sdkRequire('axios') as AxiosLike;

function armsOf(mode: Mode, service: Child, pool: Pool): Arm[] {
  const render = mode === 'render';
  const nativePath = (extra: string, pageUrl: string) =>
    `/api/scraper?api_key=${service.apiKey}&markdown=true${render ? '&render=true' : ''}${extra}&url=${encodeURIComponent(pageUrl)}`;
  const native = (extra: string): Send => {
    return async (pageUrl) => {
      const answer = await pool.request({ method: 'GET', path: nativePath(extra, pageUrl) });
      const text = await answer.body.text();
      return answer.statusCode === 200 && text.includes('reading the tides');
    };
  };
  const axiosClient = sdkAxios.create({ baseURL: service.url });
  const nativeByAxios = (extra: string): Send => {
    return async (pageUrl) => {
      const answer = await axiosClient.get(nativePath(extra, pageUrl), { responseType: 'text' });
      return answer.status === 200 && answer.data.includes('reading the tides');
    };
  };
  const fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.url, maxRetries: 1 });
  const options = {
    formats: ['markdown' as const],
    maxAge: 0,
    ...(render ? { waitFor: 1 } : {}),
  };
  const sdk = (extra: { storeInCache?: boolean; blockAds?: boolean }): Send => {
    return async (pageUrl) => {
      const document = await fc.scrape(pageUrl, { ...options, ...extra });
      return (document.markdown ?? '').includes('reading the tides');
    };
  };
  const doorByUndici: Send = async (pageUrl) => {
    const answer = await pool.request({
      method: 'POST',
      path: '/v2/scrape',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, ...options }),
    });
    const text = await answer.body.text();
    return answer.statusCode === 200 && text.includes('reading the tides');
  };
  return [
    { name: 'native', peer: 'native', send: native('') },
    {
      name: 'native+blockers',
      peer: 'native',
      send: native('&block_ads=true&block_cookie_banners=true'),
    },
    { name: 'native-axios', peer: 'native', send: nativeByAxios('') },
    {
      name: 'native+blockers-axios',
      peer: 'native',
      send: nativeByAxios('&block_ads=true&block_cookie_banners=true'),
    },
    { name: 'sdk', peer: 'native+blockers-axios', send: sdk({}) },
    { name: 'sdk-no-blockers', peer: 'native-axios', send: sdk({ blockAds: false }) },
    { name: 'sdk-no-cache', peer: 'native+blockers-axios', send: sdk({ storeInCache: false }) },
    { name: 'door-undici', peer: 'native+blockers', send: doorByUndici },
  ];
}

// ---- report ------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const range = (xs: number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

function report(mode: Mode, arms: Arm[], samples: Map<string, Sample[]>): void {
  console.log(`\n${mode === 'fetch' ? 'render=false' : 'render=true'}:`);
  console.log(
    '| arm | req/s median (range) | × its native peer, per round: median (range) | p50 ms | errors | service CPU ms/req: Node / tree | client CPU ms/req |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const arm of arms) {
    const rows = samples.get(arm.name) as Sample[];
    const peer = samples.get(arm.peer) as Sample[];
    const ratios = rows.map((row, i) => row.rps / (peer[i] as Sample).rps);
    console.log(
      `| ${arm.name} (÷ ${arm.peer}) | ${median(rows.map((r) => r.rps)).toFixed(1)} (${range(
        rows.map((r) => r.rps),
        1,
      )}) | ${median(ratios).toFixed(3)} (${range(ratios, 3)}) | ${median(
        rows.map((r) => r.p50Ms),
      ).toFixed(1)} | ${rows.reduce((n, r) => n + r.errors, 0)} | ${median(
        rows.map((r) => r.nodeCpuMs),
      ).toFixed(2)} / ${median(rows.map((r) => r.treeCpuMs)).toFixed(1)} | ${median(
        rows.map((r) => r.clientCpuMs),
      ).toFixed(2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const rounds = Number(values.rounds);
  const modes = (values.modes ?? '').split(',') as Mode[];
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-bench-'));
  const profile = values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [];
  if (values.profile) mkdirSync(values.profile, { recursive: true });
  const site = await startChild([], 'firecrawl-door.ts', ['--site', String(pages)]);
  const service = await startChild(profile, 'lib/servers.ts', ['service', dataDir]);
  const pool = new Pool(service.url, { connections: concurrency, pipelining: 1 });
  const pageUrls = Array.from({ length: pages }, (_, i) => `${site.url}/articles/${i}`);
  const started = new Date().toISOString().slice(0, 16);
  console.log(
    `firecrawl-door: ${pages} pages, ${concurrency} in flight, ${rounds} rounds, ${started}, load ${loadAverage()}`,
  );
  try {
    for (const mode of modes) {
      const chosen = values.arms?.split(',');
      const arms = armsOf(mode, service, pool).filter(
        (arm) => !chosen || arm.name.startsWith('native') || chosen.includes(arm.name),
      );
      const seconds = Number(mode === 'render' ? values['render-seconds'] : values.seconds);
      const warmupMs = mode === 'render' ? 3000 : 1000;
      // Unmeasured: the first requests of each path boot workers, warm pages and the JIT.
      for (const arm of arms) {
        await drive(arm.send, pageUrls, concurrency, warmupMs, warmupMs, service.pid);
      }
      const samples = new Map<string, Sample[]>(arms.map((arm) => [arm.name, []]));
      // Every arm's samples are stored by round, so ratios pair arms of the same round.
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < arms.length; k++) {
          const arm = arms[(k + round) % arms.length] as Arm;
          const sample = await drive(
            arm.send,
            pageUrls,
            concurrency,
            warmupMs,
            seconds * 1000,
            service.pid,
          );
          samples.get(arm.name)?.push(sample);
          process.stderr.write(
            `[${mode} round ${round + 1}] ${arm.name}: ${sample.rps.toFixed(1)} req/s, ${sample.errors} errors, load ${loadAverage()}\n`,
          );
        }
      }
      report(mode, arms, samples);
    }
    console.log(`load at the end ${loadAverage()}`);
  } finally {
    await pool.close();
    await service.stop();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (values.profile) {
    // One profile per thread: the main one and each output worker's.
    const dir = values.profile;
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'))) {
      printProfileSummary(join(dir, name), 20);
    }
  }
}

// ---- entry: the site child, or the bench ---------------------------------------------------

if (values.site !== undefined) {
  const pages = Array.from({ length: Number(values.site) }, (_, i) => Buffer.from(articlePage(i)));
  const server = createServer((req, res) => {
    const match = /^\/articles\/(\d+)$/.exec(req.url ?? '');
    const body = match ? pages[Number(match[1])] : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
    });
    res.end(body);
  });
  process.once('SIGTERM', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(
      `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
    );
  });
} else {
  await main();
}
