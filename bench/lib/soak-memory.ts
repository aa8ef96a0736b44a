/**
 * The soak's memory samples: the service after a full GC (RSS and live heap, through the
 * gc-on-signal preload) and Chromium's proportional set size, with the warm-page pool's state,
 * so samples taken at different times compare like with like.
 */
import { readFileSync } from 'node:fs';
import { processTree, treeRssBytes } from '../../src/scrape/engines/browser/chromium-process.js';
import type { MemoryProbe } from './memory-probe.js';

export interface BrowserStatus {
  pids?: number[];
  capacity?: number;
  pagesInUse?: number;
  openContexts?: number;
  openPages?: number;
  idlePages?: number;
  launches?: number;
}

export interface MemorySample {
  /** Service, after a full GC. */
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  chromiumRss: number;
  chromiumPss: number;
  browser: BrowserStatus;
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Proportional set size: shared pages split between the processes that map them. */
function treePssBytes(root: number): number {
  return processTree(root).reduce((sum, pid) => {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      return sum + Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      return sum; // exited while we looked
    }
  }, 0);
}

export async function browserStatus(base: string): Promise<BrowserStatus> {
  const ready = (await (await fetch(`${base}/readyz`)).json()) as { browser: BrowserStatus };
  return ready.browser;
}

export async function sampleMemory(
  base: string,
  pid: number,
  probe: MemoryProbe,
  snapshotPath?: string,
): Promise<MemorySample> {
  const usage = await probe.probe(pid, snapshotPath);
  const browser = await browserStatus(base);
  const pids = browser.pids ?? [];
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    chromiumRss: pids.reduce((sum, p) => sum + treeRssBytes(p), 0),
    chromiumPss: pids.reduce((sum, p) => sum + treePssBytes(p), 0),
    browser,
  };
}

export function describePool(b: BrowserStatus): string {
  return `browsers ${b.pids?.length ?? 0}, contexts ${b.openContexts}, pages ${b.openPages}, idle ${b.idlePages}/${b.capacity}, in use ${b.pagesInUse}, launches ${b.launches}`;
}

export function describeSample(m: MemorySample): string {
  return (
    `service rss ${mib(m.rss)} heap ${mib(m.heapUsed)} external ${mib(m.external)} (arrayBuffers ${mib(m.arrayBuffers)}) MiB; ` +
    `chromium PSS ${mib(m.chromiumPss)} RSS ${mib(m.chromiumRss)} MiB (${describePool(m.browser)})`
  );
}

const growth = (a: number, b: number) => (a ? ((b / a - 1) * 100).toFixed(1) : 'n/a');

/** One line per figure: warm-up → end, and the growth. */
export function compareSamples(base: MemorySample, end: MemorySample): string[] {
  const line = (label: string, a: number, b: number) =>
    `${label.padEnd(22)} ${mib(a).padStart(8)} → ${mib(b).padStart(8)} MiB (${growth(a, b)}%)`;
  return [
    line('service RSS', base.rss, end.rss),
    line('service live heap', base.heapUsed, end.heapUsed),
    line('service external', base.external, end.external),
    line('chromium PSS', base.chromiumPss, end.chromiumPss),
    line('chromium RSS (summed)', base.chromiumRss, end.chromiumRss),
  ];
}
