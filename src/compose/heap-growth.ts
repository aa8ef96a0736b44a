/**
 * How far V8 lets the heap grow past what survived its last full collection before it runs
 * the next (HEAP_GROWING_PERCENT). V8's own factor goes up to 4x for a heap that allocates
 * fast: a 10,000-page crawl's garbage then piled up to +30% of the service's RSS and left in
 * one late collection; at 25% RSS stays within a few percent at the same throughput
 * (BENCHMARKS.md, issue 16, sessions 7 and 8). The flag is read at each full collection and
 * the limit it sets holds until the next, so it must be set before the code loads (loading
 * it is a full collection's worth of garbage): the command's entry does (src/cli/main.ts).
 * 0 keeps V8's own.
 */
import { setFlagsFromString } from 'node:v8';

export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
