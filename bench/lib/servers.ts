/**
 * The servers a benchmark compares, each started as a child process so that the load
 * generator (the parent) does not share its event loop:
 *   node --import tsx bench/lib/servers.ts <kind> [DATA_DIR]
 * kinds: `service` (the real service as `npm start` runs it: the built `dist/`, warm browser,
 * LOG_LEVEL=info, logs to /dev/null by the parent; run `npm run build` first),
 * `bare-account` (bare Fastify returning an /api/account-shaped JSON), `bare-account-logged`
 * (the same with Fastify's own pino request logging, two lines per request), `bare-fetch` (bare
 * node:http server fetching ?url= with undici and returning the body), `bare-fetch-markdown`
 * (the same, converting the page with turndown in a worker thread), `bare-bytes FILE`
 * (bare node:http server answering every request with that file's bytes as JSON), `fixture`
 * (the test fixture site), `crawl-site N` (a generated link tree of N pages), `floor-<rung> DATA_DIR` (the floor's
 * minimal servers, floor-server.ts). Prints one JSON line `{"url", "apiKey"?}` on stderr when listening.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import type * as AccountStore from '../../src/accounts/account-store.js';
import type * as Configuration from '../../src/config.js';
import type * as Main from '../../src/main.js';
import { startCrawlSite } from '../../test/helpers/crawl-site.js';
import { startFixtureSite } from '../../test/helpers/fixture-site.js';
import { benchDist } from './bench-dist.mjs';

/**
 * BENCH_PROFILE_DIR: each SIGUSR2 starts, then stops, a CPU profile of the main thread written
 * into that folder, so a bench profiles its load window only (not start-up, not warm-up).
 */
function profileOnSignal(dir: string): void {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, answer) => {
      if (error) return void process.stderr.write(`profile: ${error.message}\n`);
      writeFileSync(
        join(dir, `load-${process.pid}-${Date.now()}.cpuprofile`),
        JSON.stringify(answer.profile),
      );
      process.stderr.write('profile written\n');
    });
  });
}

function ready(info: Record<string, string>): void {
  process.stderr.write(`${JSON.stringify(info)}\n`);
}

const [kind, dataDirArg] = process.argv.slice(2);
// Exit normally on the parent's SIGTERM, so `node --cpu-prof` writes its profile.
if (kind !== 'service') process.once('SIGTERM', () => process.exit(0));

/** The built service: tsx's transpiled sources run markedly slower than tsc's output. */
async function builtService() {
  const dist = benchDist();
  if (!existsSync(new URL('main.js', dist))) throw new Error('run `npm run build` first');
  const [main, config, accounts] = await Promise.all([
    import(new URL('main.js', dist).href) as Promise<typeof Main>,
    import(new URL('config.js', dist).href) as Promise<typeof Configuration>,
    import(new URL('accounts/account-store.js', dist).href) as Promise<typeof AccountStore>,
  ]);
  return { ...main, ...config, ...accounts };
}

if (kind === 'service') {
  const { createAccount, loadConfig, startService } = await builtService();
  const dataDir = dataDirArg ?? mkdtempSync(join(tmpdir(), 'pagegrab-bench-'));
  const config = loadConfig({
    PATH: process.env.PATH,
    PORT: '0',
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // bench/scrape-fetch.ts --postgres: the service on PostgreSQL instead of DATA_DIR's SQLite.
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    // Kept results (the request log's detail) on or off for a comparison; default: on.
    ...(process.env.RESULT_RETENTION_DAYS
      ? { RESULT_RETENTION_DAYS: process.env.RESULT_RETENTION_DAYS }
      : {}),
    // A bench's own settings (bench/crawl.ts: the per-host bound, lanes per node, polling, heap growth).
    ...Object.fromEntries(
      Object.entries(process.env).filter(([name]) => /^(CRAWL|BATCH|JOB|HEAP|RESULT)_/.test(name)),
    ),
  });
  // The output workers boot at start, as under `pagegrab serve` (MARKDOWN_WORKERS_AT_START).
  const service = await startService(config, {
    warmBrowser: process.env.BENCH_WARM !== '0',
    warmOutputWorkers: true,
  });
  const { apiKey } = await createAccount(service.store.db, {
    name: 'bench',
    credits: 1_000_000_000,
    concurrencyLimit: 1000,
  });
  service.closeOnSignals();
  if (process.env.BENCH_PROFILE_DIR) profileOnSignal(process.env.BENCH_PROFILE_DIR);
  ready({ url: service.url, apiKey });
} else if (kind === 'bare-account' || kind === 'bare-account-logged') {
  const app = Fastify({ logger: kind === 'bare-account-logged' ? { level: 'info' } : false });
  const createdAt = new Date().toISOString();
  app.get('/api/account', async () => ({
    id: '0190b2c8-0000-7000-8000-000000000000',
    name: 'bench',
    credits: 1_000_000_000,
    createdAt,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
} else if (kind === 'bare-fetch') {
  const agent = new Agent({ connections: 64 });
  const server = createServer(async (req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('url') ?? '';
    try {
      const answer = await request(target, { dispatcher: agent });
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': body.length,
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  server.listen(0, '127.0.0.1', () =>
    ready({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
  );
} else if (kind === 'bare-fetch-markdown') {
  // bare-fetch, converting each page with turndown in one of 2 worker threads (the service's
  // MARKDOWN_WORKERS default), round robin.
  const agent = new Agent({ connections: 64 });
  const workers = [0, 1].map(() => new Worker(new URL('./turndown-worker.mjs', import.meta.url)));
  const waiting = new Map<number, (answer: { markdown?: string; error?: string }) => void>();
  for (const worker of workers) {
    worker.on('message', (answer: { id: number; markdown?: string; error?: string }) => {
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    });
  }
  let next = 0;
  const convert = (html: string) =>
    new Promise<{ markdown?: string; error?: string }>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      workers[id % workers.length]?.postMessage({ id, html });
    });
  const server = createServer(async (req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('url') ?? '';
    try {
      const answer = await request(target, { dispatcher: agent });
      const { markdown, error } = await convert(await answer.body.text());
      if (markdown === undefined) throw new Error(error);
      const body = Buffer.from(markdown);
      res.writeHead(200, {
        'content-type': 'text/markdown; charset=utf-8',
        'content-length': body.length,
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  server.listen(0, '127.0.0.1', () =>
    ready({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
  );
} else if (kind === 'bare-bytes') {
  const body = readFileSync(dataDirArg as string);
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () =>
    ready({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
  );
} else if (kind?.startsWith('floor-')) {
  // bench/floor-scrape.ts's rungs (floor-server.ts): they import no pagegrab code but g's block check.
  const { startFloorServer } = await import('./floor-server.js');
  const rung = kind.slice('floor-'.length) as Parameters<typeof startFloorServer>[0];
  const url = await startFloorServer(rung, dataDirArg ?? mkdtempSync(join(tmpdir(), 'floor-')));
  ready({ url, apiKey: 'floor-key' });
} else if (kind === 'fixture') {
  const site = await startFixtureSite();
  ready({ url: site.origin });
} else if (kind === 'crawl-site') {
  // A link tree of N pages with a few paragraphs each (test/helpers/crawl-site.ts).
  const site = await startCrawlSite({ pages: Number(dataDirArg ?? 10_000), filler: 8 });
  ready({ url: site.origin });
} else {
  throw new Error(`unknown server kind: ${kind}`);
}
