// The built service a bench runs: dist/, or BENCH_DIST (another build's dist/ folder, a peer
// build compared in the same run). Plain JS: the service-heap-first.mjs preload needs it
// before tsx's loader is of use to it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The dist/ folder as a URL ending in `/`. */
export function benchDist() {
  return process.env.BENCH_DIST
    ? pathToFileURL(`${resolve(process.env.BENCH_DIST)}/`)
    : new URL('../../dist/', import.meta.url);
}
