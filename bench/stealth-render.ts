/**
 * Render throughput with the stealth identity (issue 15) against before it: the browser
 * engine in this process renders a small local page (warm pages, the default reuse) N times
 * at a concurrency, and reports renders per second and Chromium's CPU per render. Point it
 * at another checkout's src/ to measure that one with the same loop:
 *   node --import tsx bench/stealth-render.ts [requests, 200] [concurrency, 2] [checkout root, .]
 * e.g. `git archive <commit> src | tar -x -C /tmp/before` with node_modules linked there.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { treeCpuSeconds } from './scrape-render-bare.js';

const requests = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 2);
const root = resolve(process.argv[4] ?? '.');
const load = (path: string) => import(pathToFileURL(`${root}/src/${path}`).href);
const { createBrowserEngine } = await load('scrape/engines/browser/index.ts');
const { DEFAULT_SCRAPE_OPTIONS } = await load('scrape/params/index.ts');

const page = `<!doctype html><html><head><title>Bench</title><style>p{font:16px serif}</style></head>
<body><h1>Bench page</h1>${'<p>Some text of an article, a paragraph long enough to lay out.</p>'.repeat(40)}
<script>document.body.dataset.ready = String(navigator.userAgent.length);</script></body></html>`;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page);
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const engine = createBrowserEngine({ allowPrivateNetworks: true, maxConcurrentPages: concurrency });

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

async function pass(count: number): Promise<{ perSecond: number; cpuPerRender: number }> {
  const pid = engine.status().pids[0];
  const cpuBefore = pid ? treeCpuSeconds(pid) : 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await render();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = pid ? treeCpuSeconds(pid) - cpuBefore : Number.NaN;
  return { perSecond: count / seconds, cpuPerRender: cpu / count };
}

try {
  await pass(Math.max(concurrency * 4, 10)); // warm-up: browser, contexts, JIT
  const result = await pass(requests);
  console.log(
    JSON.stringify({
      root,
      requests,
      concurrency,
      rendersPerSecond: Number(result.perSecond.toFixed(2)),
      chromiumCpuMsPerRender: Number((result.cpuPerRender * 1000).toFixed(1)),
      contextsCreated: engine.status().contextsCreated,
      load: loadavg()[0]?.toFixed(1),
    }),
  );
} finally {
  await engine.close();
  server.close();
}
