/**
 * Issue 24, point 2: Chromium's memory around renders past MAX_BODY_BYTES. Renders, on the
 * browser engine with the address guard on (loopback let through, as in production every
 * connection goes through the guard proxy), a small page, then a 100 MB document, then a
 * 1 GiB gzip bomb (zeros compressed on the fly by the loopback server, about 1 MB on the
 * wire, never a file), then the small page again. For each: the answer, its time, and the
 * RSS summed over the Chromium process tree (from /proc) at its peak and one second after.
 * Passes when every render past the limit failed with the oversize text and Chromium's RSS
 * one second after each is within 300 MB of its idle level.
 *   node --import tsx bench/render-size-bound.ts [maxBodyMiB=20]
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { treeRssBytes } from '../src/scrape/engines/browser/chromium-process.js';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { benchPlan } from './render-engine-compare.js';

const MB = 1024 * 1024;
const maxBodyBytes = Number(process.argv[2] ?? 20) * MB;
const BOUND_MB = 300;

/** Writes `chunk` until `total` bytes went into `out` (or the client went away). */
function pump(res: ServerResponse, out: NodeJS.WritableStream, chunk: Buffer, total: number) {
  let sent = 0;
  const more = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!out.write(chunk)) return void out.once('drain', more);
    }
    out.end();
  };
  more();
}

const server = createServer((req, res) => {
  if (req.url === '/huge') {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    return pump(res, res, Buffer.alloc(64 * 1024, 'a'), 100 * 1000 * 1000);
  }
  if (req.url === '/bomb') {
    res.writeHead(200, {
      'content-type': 'text/html',
      'content-encoding': 'gzip',
      'cache-control': 'no-store',
    });
    const gzip = createGzip();
    gzip.pipe(res);
    res.on('close', () => gzip.destroy());
    return pump(res, gzip, Buffer.alloc(MB), 1024 * MB);
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>small</title><p>small page</p>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const engine = createBrowserEngine({
  allowPrivateNetworks: false,
  guard: { isAllowedAddress: (ip) => ip === '127.0.0.1' },
  maxConcurrentPages: 1,
  maxBodyBytes,
});
const rss = () => engine.status().pids.reduce((sum, pid) => sum + treeRssBytes(pid), 0);
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

async function measure(path: string) {
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  const t0 = performance.now();
  let outcome: string;
  try {
    const page = await engine.render(benchPlan(`${origin}${path}`));
    outcome = `${page.status}, ${page.html.length} chars`;
  } catch (error) {
    outcome = (error as Error).message;
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  await settle();
  return { outcome, ms, peak, after: rss() };
}

await engine.render(benchPlan(`${origin}/small`));
await settle();
const idle = rss();
console.log(`MAX_BODY_BYTES ${maxBodyBytes}; Chromium idle RSS ${mb(idle)} MB`);
let ok = true;
for (const [name, path] of [
  ['100 MB document', '/huge'],
  ['1 GiB gzip bomb', '/bomb'],
  ['small page after', '/small'],
] as const) {
  const { outcome, ms, peak, after } = await measure(path);
  const over = path !== '/small';
  const pass =
    (over ? /exceeds \d+ bytes/.test(outcome) : outcome.startsWith('200')) &&
    after - idle <= BOUND_MB * 1e6;
  ok &&= pass;
  console.log(
    `${name}: ${outcome} in ${ms.toFixed(0)} ms; RSS peak ${mb(peak)} MB, ` +
      `1 s after ${mb(after)} MB (${after >= idle ? '+' : ''}${mb(after - idle)} MB on idle) ` +
      `${pass ? 'ok' : 'FAIL'}`,
  );
}
await engine.close();
server.close();
console.log(ok ? 'SIZE BOUND PASS' : 'SIZE BOUND FAIL');
process.exitCode = ok ? 0 : 1;
