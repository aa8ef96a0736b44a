/**
 * Bench-only preload for a service node under soak (never loaded by src/): on SIGUSR2 it runs a
 * full collection and reports `process.memoryUsage()`, and writes a heap snapshot when asked, so
 * the soak samples memory the same way at every point instead of wherever the GC happens to be.
 *
 *   NODE_OPTIONS="--expose-gc --import /abs/bench/lib/gc-on-signal.mjs"
 *   PAGEGRAB_BENCH_PROBE=/tmp/dir   (the folder the harness and this preload talk through)
 *
 * Protocol (see bench/lib/memory-probe.ts): the harness writes `<dir>/request.json`
 * `{ "id": "...", "snapshot": "/path.heapsnapshot" | null }` and sends SIGUSR2; this writes
 * `<dir>/reply-<id>.json` (via a rename, so the harness never reads half a file).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

// The env var is the bench harness's channel to this preload; the service never sees it.
const dir = process.env.PAGEGRAB_BENCH_PROBE;

/** Two major collections: the first can leave garbage that only its finalizers freed. */
function fullGc() {
  const gc = globalThis.gc;
  if (typeof gc !== 'function') throw new Error('gc-on-signal needs --expose-gc');
  gc({ type: 'major', execution: 'sync' });
  gc({ type: 'major', execution: 'sync' });
}

function answer() {
  const started = Date.now();
  let request;
  try {
    request = JSON.parse(readFileSync(join(dir, 'request.json'), 'utf8'));
  } catch (error) {
    process.stderr.write(`gc-on-signal: unreadable request: ${error}\n`);
    return;
  }
  let reply;
  try {
    fullGc();
    const usage = process.memoryUsage();
    const snapshot = request.snapshot ? writeHeapSnapshot(request.snapshot) : null;
    reply = { id: request.id, ...usage, snapshot, gcMs: Date.now() - started };
  } catch (error) {
    reply = { id: request.id, error: String(error) };
  }
  const target = join(dir, `reply-${request.id}.json`);
  writeFileSync(`${target}.tmp`, JSON.stringify(reply));
  renameSync(`${target}.tmp`, target);
}

if (isMainThread && dir) {
  // Deferred out of the signal callback so the collection runs on a clean stack.
  process.on('SIGUSR2', () => setImmediate(answer));
}
