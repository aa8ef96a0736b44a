/**
 * What rotation costs (issue 15): render=false through an upstream proxy on loopback, each
 * scrape on a connection of its own (a new TCP connection and CONNECT tunnel per scrape, as
 * the engine now does) against pooled connections: the same engine with a kept keep-alive
 * tunnel per worker (a sticky session each, which is what the pooled ProxyAgent of before
 * gave), and bare undici through one pooled ProxyAgent for reference. The proxy (proxy-chain, as the tests use) and the
 * target (a 20 KB page) run in this process too, so the figures are the whole loop's.
 *   node --import tsx bench/proxy-rotation.ts [requests per cell, 2000] [concurrencies, 1,8]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'proxy-chain';
import { ProxyAgent, request } from 'undici';
import { createFetchEngine } from '../src/scrape/engines/fetch-engine.js';
import { createHttpClient } from '../src/scrape/net/http-client.js';
import { SessionStore } from '../src/scrape/net/sessions.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../src/scrape/params/index.js';
import type { ProxyEndpoint, ScrapeRun } from '../src/scrape/types.js';
import { percentile } from './lib/load.js';

const requests = Number(process.argv[2] ?? 2000);
const levels = (process.argv[3] ?? '1,8').split(',').map(Number);

const body = `<!doctype html><title>Bench</title><p>${'Plain text of a product page. '.repeat(700)}</p>`;
const target = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(body);
});
await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
const proxy = new Server({ port: 0, host: '127.0.0.1', verbose: false });
let connections = 0;
proxy.server.on('connection', () => {
  connections += 1;
});
await proxy.listen();
const endpoint: ProxyEndpoint = {
  url: `http://127.0.0.1:${proxy.port}`,
  type: 'datacenter',
  country: null,
};

const sessions = new SessionStore();
const engine = createFetchEngine({
  http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 22 }),
  sessions,
});

function run(sessionId: string | null): ScrapeRun {
  return {
    options: { ...DEFAULT_SCRAPE_OPTIONS, url, sessionId, timeoutMs: 30_000 },
    engine: 'fetch',
    output: 'html',
    block: null,
    proxies: [endpoint],
    isolationKey: 'bench',
    deadline: Date.now() + 30_000,
    signal: new AbortController().signal,
  };
}

/** Before issue 15: one keep-alive ProxyAgent per proxy for the engine's life. */
const pooled = new ProxyAgent({ uri: endpoint.url, connections: 32 });
const ways: Record<string, (worker: number) => Promise<unknown>> = {
  'bare undici, pooled ProxyAgent (the way before, without the engine)': async () => {
    const answer = await request(url, { dispatcher: pooled });
    return answer.body.text();
  },
  'engine, a fresh connection per scrape (now)': () => engine.fetch(run(null)),
  'engine, pooled: one kept tunnel per worker (a sticky session each)': (worker) => {
    if (sessions.get('bench', `w${worker}`) === null) {
      sessions.open('bench', `w${worker}`, 'datacenter', null, () => [endpoint]);
    }
    return engine.fetch(run(`w${worker}`));
  },
};

async function cell(way: (worker: number) => Promise<unknown>, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  connections = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < requests) {
        next += 1;
        const t = performance.now();
        await way(worker);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: requests / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    cpuMsPerRequest: (used.user + used.system) / 1000 / requests,
    connections,
  };
}

console.log(`${requests} scrapes per cell, render=false through a loopback proxy-chain proxy`);
console.log('| way | concurrency | req/s | p50 ms | p95 ms | CPU ms/req | proxy connections |');
console.log('|---|---|---|---|---|---|---|');
try {
  for (const concurrency of levels) {
    for (const [name, way] of Object.entries(ways)) {
      await cell(way, concurrency); // warm-up (JIT, first connections)
      const r = await cell(way, concurrency);
      console.log(
        `| ${name} | ${concurrency} | ${r.reqPerSec.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.connections} |`,
      );
    }
  }
} finally {
  await engine.close();
  await sessions.close();
  await pooled.close();
  await proxy.close(true);
  target.close();
}
