/**
 * Preloaded (`--import`) into the bench's `service` process before servers.ts loads: applies
 * HEAP_GROWING_PERCENT before any of the service's code loads, as src/cli/main.ts does for
 * `npm start`. Applied only later (in startService), a full collection while the code loads
 * runs under V8's own growth factor and sets the heap's limit until the next one.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as HeapGrowth from '../../src/compose/heap-growth.js';
import type * as Configuration from '../../src/config.js';

const dist = process.env.BENCH_DIST
  ? pathToFileURL(`${resolve(process.env.BENCH_DIST)}/`)
  : new URL('../../dist/', import.meta.url);
if (existsSync(new URL('compose/heap-growth.js', dist))) {
  const [{ applyHeapGrowth }, { loadConfig }] = await Promise.all([
    import(new URL('compose/heap-growth.js', dist).href) as Promise<typeof HeapGrowth>,
    import(new URL('config.js', dist).href) as Promise<typeof Configuration>,
  ]);
  applyHeapGrowth(
    loadConfig({ PATH: process.env.PATH, HEAP_GROWING_PERCENT: process.env.HEAP_GROWING_PERCENT })
      .heapGrowingPercent,
  );
}
