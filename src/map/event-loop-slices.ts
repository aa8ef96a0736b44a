/**
 * Long synchronous loops over a site's entries (one sitemap lists up to 50,000) give the event
 * loop back every few milliseconds: one big map must not stall every other request on the
 * node (/healthz, scrapes, their timers). Issue 24: a 50,000-entry sitemap index held the
 * loop for up to 5 s.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest run of work between two turns of the event loop. */
export const SLICE_MS = 5;

export interface Slices {
  /** True once the current slice has run its time: the caller should `pause`. */
  due(): boolean;
  /** Lets the event loop run (timers, I/O) once, then starts a new slice. */
  pause(): Promise<void>;
}

export function eventLoopSlices(sliceMs = SLICE_MS): Slices {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= sliceMs,
    async pause() {
      await nextTurn();
      start = performance.now();
    },
  };
}

/** `each` over the items, pausing whenever a slice is due. */
export async function forEachSliced<T>(
  items: Iterable<T>,
  each: (item: T) => void,
  slices: Slices = eventLoopSlices(),
): Promise<void> {
  for (const item of items) {
    each(item);
    if (slices.due()) await slices.pause();
  }
}
