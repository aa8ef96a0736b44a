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
  /** Of rss: anonymous memory (heap, malloc) and mapped files (code, libraries). */
  rssAnon: number;
  rssFile: number;
  /** V8 heap reserved (heapTotal) and live (heapUsed). */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  chromiumRss: number;
  chromiumPss: number;
  /**
   * Of that, anonymous and shared-memory pages (Pss_Anon + Pss_Shmem): what can leak. The file
   * part is Chromium's code, split with every other Chromium on the machine, so it moves with
   * other people's browsers (the soak shares its 2 cores with colleagues' tests).
   */
  chromiumPssAnon: number;
  /** PSS by process role, e.g. "browser 180.2, renderer×4 300.1". */
  chromiumRoles: string;
  /** Anon PSS of the renderers (pages, spare renderer) and of everything else (browser, GPU, utilities). */
  chromiumRenderers: { anon: number; count: number };
  chromiumBase: number;
  browser: BrowserStatus;
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** A Chromium process's role, from its command line (`--type=`, `--utility-sub-type=`). */
function roleOf(pid: number): string {
  try {
    // Chromium rewrites its argv into one space-separated title, so split on both.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = args.find((a) => a.startsWith('--type='))?.slice(7);
    if (!type) return 'browser';
    const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    return sub ? (sub.split('.').at(-1) ?? type) : type;
  } catch {
    return 'gone';
  }
}

/**
 * Proportional set size (shared pages split between the processes that map them), by process
 * role: which part of Chromium grows (the browser process, the GPU process, renderers).
 */
interface RoleMemory {
  pss: number;
  anon: number;
  count: number;
}

function treePss(root: number): Map<string, RoleMemory> {
  const byRole = new Map<string, RoleMemory>();
  for (const pid of processTree(root)) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const field = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
      const role = roleOf(pid);
      const entry = byRole.get(role) ?? { pss: 0, anon: 0, count: 0 };
      entry.pss += field('Pss');
      entry.anon += field('Pss_Anon') + field('Pss_Shmem');
      entry.count += 1;
      byRole.set(role, entry);
    } catch {
      // exited while we looked
    }
  }
  return byRole;
}

const statusKb = (status: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;

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
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const browser = await browserStatus(base);
  const pids = browser.pids ?? [];
  const roles = new Map<string, RoleMemory>();
  for (const p of pids) {
    for (const [role, v] of treePss(p)) {
      const entry = roles.get(role) ?? { pss: 0, anon: 0, count: 0 };
      roles.set(role, {
        pss: entry.pss + v.pss,
        anon: entry.anon + v.anon,
        count: entry.count + v.count,
      });
    }
  }
  return {
    rss: usage.rss,
    rssAnon: statusKb(status, 'RssAnon'),
    rssFile: statusKb(status, 'RssFile'),
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    chromiumRss: pids.reduce((sum, p) => sum + treeRssBytes(p), 0),
    chromiumPss: [...roles.values()].reduce((sum, v) => sum + v.pss, 0),
    chromiumPssAnon: [...roles.values()].reduce((sum, v) => sum + v.anon, 0),
    chromiumRenderers: roles.get('renderer') ?? { anon: 0, count: 0 },
    chromiumBase: [...roles].reduce(
      (sum, [role, v]) => sum + (role === 'renderer' ? 0 : v.anon),
      0,
    ),
    chromiumRoles: [...roles]
      .sort((a, b) => b[1].anon - a[1].anon)
      .map(([role, v]) => `${role}${v.count > 1 ? `×${v.count}` : ''} ${mib(v.anon)}`)
      .join(', '),
    browser,
  };
}

export function describePool(b: BrowserStatus): string {
  return `browsers ${b.pids?.length ?? 0}, contexts ${b.openContexts}, pages ${b.openPages}, idle ${b.idlePages}/${b.capacity}, in use ${b.pagesInUse}, launches ${b.launches}`;
}

export function describeSample(m: MemorySample): string {
  return (
    `service rss ${mib(m.rss)} (anon ${mib(m.rssAnon)}) heap ${mib(m.heapUsed)}/${mib(m.heapTotal)} external ${mib(m.external)} (arrayBuffers ${mib(m.arrayBuffers)}) MiB; ` +
    `chromium PSS ${mib(m.chromiumPss)}, anon ${mib(m.chromiumPssAnon)} [${m.chromiumRoles}] RSS ${mib(m.chromiumRss)} MiB (${describePool(m.browser)})`
  );
}

const growth = (a: number, b: number) => (a ? ((b / a - 1) * 100).toFixed(1) : 'n/a');

/** One line per figure: warm-up → end, and the growth. */
export function compareSamples(base: MemorySample, end: MemorySample): string[] {
  const line = (label: string, a: number, b: number) =>
    `${label.padEnd(22)} ${mib(a).padStart(8)} → ${mib(b).padStart(8)} MiB (${growth(a, b)}%)`;
  return [
    line('service RSS', base.rss, end.rss),
    line('service RSS anon', base.rssAnon, end.rssAnon),
    line('service RSS file', base.rssFile, end.rssFile),
    line('service heap total', base.heapTotal, end.heapTotal),
    line('service live heap', base.heapUsed, end.heapUsed),
    line('service external', base.external, end.external),
    line('chromium PSS', base.chromiumPss, end.chromiumPss),
    line('chromium PSS anon', base.chromiumPssAnon, end.chromiumPssAnon),
    line('  browser+gpu+utility', base.chromiumBase, end.chromiumBase),
    line(
      `  renderers ${base.chromiumRenderers.count}→${end.chromiumRenderers.count}`,
      base.chromiumRenderers.anon,
      end.chromiumRenderers.anon,
    ),
    line('chromium RSS (summed)', base.chromiumRss, end.chromiumRss),
  ];
}
