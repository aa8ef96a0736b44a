/**
 * Render throughput with the stealth identity (issue 15) against before it, in one run: two
 * browser engines in this process, one from this checkout and one from another checkout's
 * src/ (the commit before the identity), each with its own Chromium, render the same small
 * local page N times at a concurrency (warm pages, the default reuse). Rounds interleave the
 * arms and the order alternates every round, so the drift of a shared machine falls on both;
 * each round's ratio is taken within that round, and the median and range over rounds are
 * printed with renders per second and Chromium's CPU per render.
 *
 *   node --import tsx bench/stealth-render.ts --before <checkout root>
 *     [--requests 60] [--concurrency 2] [--rounds 8]
 *
 * The other checkout: `git archive <commit> src package.json tsconfig.json | tar -x -C <dir>`
 * and this checkout's node_modules linked into it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { treeCpuSeconds } from './scrape-render-bare.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    requests: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '8' },
  },
});
if (!values.before) throw new Error('--before <checkout root> is required');
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);

const page = `<!doctype html><html><head><title>Bench</title><style>p{font:16px serif}</style></head>
<body><h1>Bench page</h1>${'<p>Some text of an article, a paragraph long enough to lay out.</p>'.repeat(40)}
<script>document.body.dataset.ready = String(navigator.userAgent.length);</script></body></html>`;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page);
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

interface Engine {
  render(run: unknown): Promise<unknown>;
  status(): { pids: number[] };
  close(): Promise<void>;
}

interface Arm {
  name: 'before' | 'stealth';
  engine: Engine;
  render: () => Promise<unknown>;
  samples: { perSecond: number; cpuMsPerRender: number }[];
}

/** An arm from a checkout's own src/ (its own module instances, its own Chromium). */
async function armOf(name: Arm['name'], root: string): Promise<Arm> {
  const load = (path: string) => import(pathToFileURL(`${resolve(root)}/src/${path}`).href);
  const { createBrowserEngine } = await load('scrape/engines/browser/index.ts');
  const { DEFAULT_SCRAPE_OPTIONS } = await load('scrape/params/index.ts');
  const engine = createBrowserEngine({
    allowPrivateNetworks: true,
    maxConcurrentPages: concurrency,
  }) as Engine;
  const render = () =>
    engine.render({
      options: { ...DEFAULT_SCRAPE_OPTIONS, url, render: true, timeoutMs: 60_000 },
      engine: 'browser',
      output: 'html',
      block: null,
      proxies: [],
      isolationKey: 'bench',
      deadline: Date.now() + 60_000,
      signal: new AbortController().signal,
    });
  return { name, engine, render, samples: [] };
}

async function pass(
  arm: Arm,
  count: number,
): Promise<{ perSecond: number; cpuMsPerRender: number }> {
  const pid = arm.engine.status().pids[0];
  const cpuBefore = pid ? treeCpuSeconds(pid) : 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await arm.render();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = pid ? treeCpuSeconds(pid) - cpuBefore : Number.NaN;
  return { perSecond: count / seconds, cpuMsPerRender: (cpu / count) * 1000 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const range = (xs: number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;

const arms = [await armOf('before', values.before), await armOf('stealth', '.')];
try {
  console.log(
    `stealth-render: ${requests} renders per pass, ${concurrency} in flight, ${rounds} rounds, ` +
      `${new Date().toISOString()}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  // Warm-up: browser start, contexts, JIT.
  for (const arm of arms) await pass(arm, Math.max(concurrency * 4, 10));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? arms : [...arms].reverse();
    for (const arm of order) arm.samples.push(await pass(arm, requests));
    const cells = arms.map(
      (arm) =>
        `${arm.name} ${arm.samples[round]?.perSecond.toFixed(2)}/s ${arm.samples[round]?.cpuMsPerRender.toFixed(0)} ms`,
    );
    console.log(
      `round ${round + 1} (${order[0]?.name} first): ${cells.join(', ')}, load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
  const [before, stealth] = arms as [Arm, Arm];
  const throughput = stealth.samples.map(
    (s, i) => s.perSecond / (before.samples[i]?.perSecond ?? 1),
  );
  const cpu = stealth.samples.map(
    (s, i) => s.cpuMsPerRender / (before.samples[i]?.cpuMsPerRender ?? 1),
  );
  console.log('| arm | renders/s median (range) | Chromium CPU ms/render median (range) |');
  console.log('|---|---|---|');
  for (const arm of arms) {
    const rates = arm.samples.map((s) => s.perSecond);
    const cpus = arm.samples.map((s) => s.cpuMsPerRender);
    console.log(
      `| ${arm.name} | ${median(rates).toFixed(2)} (${range(rates, 2)}) | ${median(cpus).toFixed(0)} (${range(cpus, 0)}) |`,
    );
  }
  console.log(
    `stealth ÷ before, per round: throughput median ${pct(median(throughput))} (${throughput.map(pct).join(', ')}); ` +
      `Chromium CPU/render median ${pct(median(cpu))} (${cpu.map(pct).join(', ')})`,
  );
} finally {
  for (const arm of arms) await arm.engine.close();
  server.close();
}
