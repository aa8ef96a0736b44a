/**
 * Long synchronous loops over a site's entries (one sitemap lists up to 50,000) give the event
 * loop back every few milliseconds: one big map must not stall every other request on the
 * node (/healthz, scrapes, their timers). Issue 24: a 50,000-entry sitemap index held the
 * loop for up to 5 s.
 *
 * Paused work resumes one slice per turn of the loop, in turn, whatever its owner: a map
 * reads four sitemaps at once and several maps may run, and each resuming in the same turn
 * would hold the loop for all their slices together before it polls for I/O again. The queue
 * is the process's, as the event loop is.
 */
import { performance } from 'node:perf_hooks';

/** The longest run of work between two turns of the event loop. */
export const SLICE_MS = 5;

export interface Slices {
  /** True once the current slice has run its time: the caller should `pause`. */
  due(): boolean;
  /** Waits for a turn of the event loop of its own, then starts a new slice. */
  pause(): Promise<void>;
}

const waiting: (() => void)[] = [];
let turnScheduled = false;

/** One paused slice resumes per turn (setImmediate: after the loop has polled for I/O). */
function nextTurn() {
  waiting.shift()?.();
  turnScheduled = waiting.length > 0;
  if (turnScheduled) setImmediate(nextTurn);
}

function turn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(nextTurn);
    }
  });
}

export function eventLoopSlices(sliceMs = SLICE_MS): Slices {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= sliceMs,
    async pause() {
      await turn();
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
