/**
 * The harness side of bench/lib/gc-on-signal.mjs: the environment that loads the preload into a
 * node, and `probe()`, which asks that node for a full GC plus `process.memoryUsage()` (and
 * optionally a heap snapshot) and waits for the answer.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const preload = pathToFileURL(resolve(import.meta.dirname, 'gc-on-signal.mjs')).href;

export interface ProbeReply {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The snapshot's path when one was asked for. */
  snapshot: string | null;
  /** Time the node spent collecting (and snapshotting). */
  gcMs: number;
}

export interface MemoryProbe {
  /** Extra environment for startNode(): loads the preload into the node. */
  env: Record<string, string>;
  probe(pid: number, snapshotPath?: string): Promise<ProbeReply>;
  close(): void;
}

export function createMemoryProbe(): MemoryProbe {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-probe-'));
  let next = 0;
  return {
    env: {
      NODE_OPTIONS: `--expose-gc --import ${preload}`,
      PAGEGRAB_BENCH_PROBE: dir,
    },
    async probe(pid, snapshotPath) {
      const id = String(next++);
      writeFileSync(
        join(dir, 'request.json'),
        JSON.stringify({ id, snapshot: snapshotPath ?? null }),
      );
      process.kill(pid, 'SIGUSR2');
      const reply = join(dir, `reply-${id}.json`);
      const deadline = Date.now() + 120_000; // a heap snapshot of a few hundred MiB takes a while
      while (!existsSync(reply)) {
        if (Date.now() > deadline) throw new Error(`node ${pid} did not answer the memory probe`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const parsed = JSON.parse(readFileSync(reply, 'utf8')) as ProbeReply & { error?: string };
      if (parsed.error) throw new Error(`memory probe failed in the node: ${parsed.error}`);
      return parsed;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
