/**
 * The `pagegrab` command's entry: HEAP_GROWING_PERCENT is applied here, before the rest of
 * the code loads, then the command runs (command.ts).
 *
 * V8 reads the flag at each full collection and keeps the limit set at the last one. Loading
 * the code is enough garbage for a full collection; run under V8's own factor (up to 4x), it
 * let the heap grow to about 200 MiB before the next one, and a 10,000-page crawl's RSS rose
 * 25% before falling back (BENCHMARKS.md, issue 16, session 8). startService applying the
 * flag again is harmless and serves services started from code.
 */
import { applyHeapGrowth } from '../compose/heap-growth.js';
import { ConfigError, loadConfig } from '../config.js';

try {
  applyHeapGrowth(loadConfig().heapGrowingPercent);
} catch (error) {
  // A bad setting is reported by the command itself, with its usual message and exit code.
  if (!(error instanceof ConfigError)) throw error;
}
await import('./command.js');
