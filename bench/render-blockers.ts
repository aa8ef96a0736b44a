/**
 * Render throughput and latency with all three blockers (block_ads, block_cookie_banners,
 * block_chat_widgets) against without, on a local page with no consent platform, in the same
 * run: one in-process browser engine wired to the real filter engines (build/filters) and
 * autoconsent as the composition root wires them, rounds alternating the two modes so that
 * the machine's load hits both alike. Target (issue 25): with >= 0.8x without.
 *   node --import tsx bench/render-blockers.ts [renders per cell, 40] [concurrency, 2] [rounds, 3]
 *     [blockers, ads,cookies,chat: a subset measures what each costs]
 * Prints each cell, then the medians over the rounds and their ratio, and the contexts each
 * mode created (a warm page reused is no new context).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { browserBlockersHook } from '../src/compose/scrape-parts.js';
import { loadConsentRejectorAssets } from '../src/scrape/blockers/consent-rejector.js';
import { loadFilterEngines } from '../src/scrape/blockers/filter-engines.js';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../src/scrape/params/index.js';
import type { BlockSelection } from '../src/scrape/types.js';
import { percentile, serveBenchPage } from './scrape-render-bare.js';

interface Cell {
  rendersPerSec: number;
  p50Ms: number;
  contexts: number;
}

const [n = 40, c = 2, rounds = 3] = process.argv.slice(2, 5).map(Number);
const named = (process.argv[5] ?? 'ads,cookies,chat').split(',');
const ALL: BlockSelection = {
  ads: named.includes('ads'),
  cookieBanners: named.includes('cookies'),
  chatWidgets: named.includes('chat'),
};
const filters = await loadFilterEngines(join(import.meta.dirname, '../build/filters'));
const hook = browserBlockersHook(filters, loadConsentRejectorAssets());
const engine = createBrowserEngine({
  allowPrivateNetworks: true,
  // Warm pages for both modes (a page with the consent rejector serves only renders that
  // reject): the idle pages kept are bounded by this.
  maxConcurrentPages: 2 * c,
  blockers: hook,
});
const page = await serveBenchPage();

async function render(block: BlockSelection | null): Promise<number> {
  const started = performance.now();
  const timeoutMs = 30_000;
  await engine.render({
    options: {
      ...DEFAULT_SCRAPE_OPTIONS,
      url: page.url,
      render: true,
      timeoutMs,
      ...(process.env.WAIT_UNTIL ? { waitUntil: process.env.WAIT_UNTIL as never } : {}),
    },
    engine: 'browser',
    output: 'html',
    block,
    proxies: [],
    isolationKey: 'bench',
    deadline: Date.now() + timeoutMs,
    signal: new AbortController().signal,
  });
  return performance.now() - started;
}

async function cell(block: BlockSelection | null, count: number): Promise<Cell> {
  const latencies: number[] = [];
  const contexts0 = engine.status().contextsCreated;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < count) {
        next += 1;
        latencies.push(await render(block));
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rendersPerSec: count / seconds,
    p50Ms: percentile(latencies, 50),
    contexts: engine.status().contextsCreated - contexts0,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const show = (name: string, x: Cell) =>
  `${name.padEnd(9)} ${x.rendersPerSec.toFixed(2).padStart(6)} renders/s  p50 ${x.p50Ms.toFixed(0).padStart(5)} ms  new contexts ${x.contexts}`;

console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
console.log(
  `${n} html renders per cell, concurrency ${c}, ${rounds} rounds, blockers ${named.join(',')}; page ${page.url}`,
);
const cells = { without: [] as Cell[], with: [] as Cell[] };
try {
  // Warm-up: every page slot has a warm page of each kind.
  await cell(null, 2 * c);
  await cell(ALL, 2 * c);
  for (let round = 0; round < rounds; round += 1) {
    cells.without.push(await cell(null, n));
    console.log(show('without', cells.without.at(-1) as Cell));
    cells.with.push(await cell(ALL, n));
    console.log(show('with', cells.with.at(-1) as Cell));
  }
} finally {
  await engine.close();
  await page.close();
}
const rate = (xs: Cell[]) => median(xs.map((x) => x.rendersPerSec));
const p50 = (xs: Cell[]) => median(xs.map((x) => x.p50Ms));
console.log(
  `medians: without ${rate(cells.without).toFixed(2)} renders/s p50 ${p50(cells.without).toFixed(0)} ms; ` +
    `with ${rate(cells.with).toFixed(2)} renders/s p50 ${p50(cells.with).toFixed(0)} ms; ` +
    `ratio ${(rate(cells.with) / rate(cells.without)).toFixed(2)}x`,
);
console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
