/**
 * Preloaded (`--import`) into the bench's `service` process before servers.ts loads: applies
 * HEAP_GROWING_PERCENT before any of the service's code loads, as src/cli/main.ts does for
 * `npm start`. Applied only later (in startService), a full collection while the code loads
 * runs under V8's own growth factor and sets the heap's limit until the next one.
 *
 * Plain JS, not TypeScript: worker threads inherit the preload (execArgv) and the service's
 * output workers run without tsx's loader, so a .ts preload kept them from starting (the
 * crawl hung at its first page). The setting is the process's: applied on the main thread.
 */
import { existsSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { benchDist } from './bench-dist.mjs';

const dist = benchDist();
if (isMainThread && existsSync(new URL('compose/heap-growth.js', dist))) {
  const [{ applyHeapGrowth }, { loadConfig }] = await Promise.all([
    import(new URL('compose/heap-growth.js', dist).href),
    import(new URL('config.js', dist).href),
  ]);
  applyHeapGrowth(
    loadConfig({ PATH: process.env.PATH, HEAP_GROWING_PERCENT: process.env.HEAP_GROWING_PERCENT })
      .heapGrowingPercent,
  );
}
