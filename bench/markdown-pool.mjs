/**
 * The converter's time per page in the built output worker pool (one worker, as the service
 * starts it: its young generation, the filter engines loaded), over every page of the four
 * corpora, one page at a time: the issue's goal is measured there (median ≤ 10 ms, no page
 * over 500 ms). Per page: wall from `pool.run` to its answer (the copy into the worker and
 * back included), and the process's CPU over that time (all threads: the worker and V8's GC
 * helpers). Another build's dist/ as --against gets its own pool, alternating page by page.
 *   node scripts/build.mjs
 *   node --heap-growing-percent=25 bench/markdown-pool.mjs [--against ../main/dist/]
 *     [--rounds 2] [--slowest 5]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    slowest: { type: 'string', default: '5' },
    root: { type: 'string', default: '/work/shared/corpus' },
  },
});
const here = new URL('../dist/', import.meta.url);
const dists = [here, ...(values.against ? [new URL(`file://${join(values.against, '/')}`)] : [])];
const { decodeBody } = await import(new URL('scrape/net/charset.js', here).href);

function loadPages(name) {
  const dir = join(values.root, name);
  const segments = name === 'segments';
  const truth = JSON.parse(
    readFileSync(join(dir, segments ? 'evaldata.json' : 'ground-truth.json'), 'utf8'),
  );
  // decoded as the service decodes, before the page reaches the pool
  const contentType = segments ? 'text/html' : 'text/html; charset=utf-8';
  return Object.keys(truth)
    .sort()
    .map((id) => {
      const url = truth[id]?.url ?? '';
      const bytes = gunzipSync(readFileSync(join(dir, `${id}.html.gz`)));
      return {
        key: `${name}/${id}`,
        pageUrl: /^https?:/.test(url) ? url : 'http://localhost/',
        html: decodeBody(bytes, contentType).text,
      };
    });
}
const pages = ['articles', 'readability', 'segments', 'wcxb'].flatMap(loadPages);

const pools = await Promise.all(
  dists.map(async (dist) => {
    const { createOutputPool } = await import(new URL('scrape/output/output-pool.js', dist).href);
    const pool = createOutputPool({
      size: 1,
      maxMs: 60_000,
      filtersDir: fileURLToPath(new URL('../build/filters', dist)),
    });
    await pool.warmUp();
    return { name: fileURLToPath(dist), pool };
  }),
);
for (const { pool } of pools) {
  for (const page of pages.slice(0, 40)) await pool.run({ ...page, markdown: true });
}

const summary = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(2)} p90 ${at(0.9).toFixed(1)} max ${(sorted.at(-1) ?? 0).toFixed(1)}`;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
process.stdout.write(`${pages.length} pages; load average at start ${load()}\n`);
for (let round = 0; round < Number(values.rounds); round++) {
  const wall = pools.map(() => []);
  const cpu = pools.map(() => []);
  for (let i = 0; i < pages.length; i++) {
    for (let k = 0; k < pools.length; k++) {
      // alternate which pool goes first, so neither always runs on a warmer machine
      const p = (k + i + round) % pools.length;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await pools[p].pool.run({ ...pages[i], markdown: true });
      wall[p].push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu[p].push((used.user + used.system) / 1000);
    }
  }
  pools.forEach(({ name }, p) => {
    process.stdout.write(
      `round ${round + 1} ${name}: wall ${summary(wall[p])}; cpu ${summary(cpu[p])}\n`,
    );
    const ranked = pages.map((page, i) => ({ key: page.key, ms: wall[p][i] }));
    ranked.sort((a, b) => b.ms - a.ms);
    for (const { key, ms } of ranked.slice(0, Number(values.slowest))) {
      process.stdout.write(`  wall ${ms.toFixed(1)} ms ${key}\n`);
    }
  });
}
process.stdout.write(`load average at end ${load()}\n`);
await Promise.all(pools.map(({ pool }) => pool.close()));
