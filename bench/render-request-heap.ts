/**
 * Node heap held by a warm page's routed requests: renders of a local page with 300 images
 * through the browser engine with one warm page, reporting every 5 renders the time per
 * render, the heap after a full GC and the contexts created. Playwright keeps each routed
 * request's objects until the page closes; `pageRequestLimit` bounds how many a page keeps.
 *   node --expose-gc --import tsx bench/render-request-heap.ts [pageRequestLimit] [renders=30]
 * (0 or no limit argument: the engine's default.)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { benchPlan } from './render-engine-compare.js';

const IMAGES = 300;
const limit = Number(process.argv[2] ?? 0);
const renders = Number(process.argv[3] ?? 30);
const images = Array.from({ length: IMAGES }, (_, i) => `<img src="/i${i}.svg">`).join('');
const server = createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>images</title>${images}`);
  } else {
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
    res.end('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const engine = createBrowserEngine({
  allowPrivateNetworks: true,
  maxConcurrentPages: 1,
  ...(limit > 0 ? { pageRequestLimit: limit } : {}),
});
const heapMiB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return (process.memoryUsage().heapUsed / 1048576).toFixed(0);
};
let since = performance.now();
for (let i = 1; i <= renders; i++) {
  await engine.render(benchPlan(url));
  if (i % 5 === 0) {
    const perRender = (performance.now() - since) / 5;
    console.log(
      `${i}: ${perRender.toFixed(0)} ms/render, heapUsed ${heapMiB()} MiB, ` +
        `contexts ${engine.status().contextsCreated}`,
    );
    since = performance.now();
  }
}
await engine.close();
server.close();
