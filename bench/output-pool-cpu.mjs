/**
 * CPU per page of the built output pool (2 workers, the filter engines loaded, as the service
 * runs it) converting bench/scrape-fetch.ts's page (test/helpers/fixture-site.ts `/big`: ~1,300
 * identical paragraphs), all threads counted (process.cpuUsage: the workers and V8's GC
 * helpers too), after 40 untimed pages. Another build's dist/ as the first argument compares:
 *   node --heap-growing-percent=25 bench/output-pool-cpu.mjs [../dist/] [pages, 200]
 * (the service sets HEAP_GROWING_PERCENT=25 process-wide; the flag reproduces it).
 */
import { fileURLToPath } from 'node:url';

const dist = new URL(process.argv[2] ?? '../dist/', import.meta.url);
const pages = Number(process.argv[3] ?? 200);
const { createOutputPool } = await import(new URL('scrape/output/output-pool.js', dist).href);
const row = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.</p>\n';
const big = `<!doctype html><html><head><meta charset="utf-8"><title>Big</title></head><body>${row.repeat(Math.ceil(100_000 / row.length))}</body></html>`;
const pool = createOutputPool({
  size: 2,
  maxMs: 60_000,
  filtersDir: fileURLToPath(new URL('../build/filters', import.meta.url)),
});
const lane = async (count) => {
  for (let i = 0; i < count; i++) {
    await pool.run({ html: big, pageUrl: 'http://127.0.0.1/big', markdown: true });
  }
};
await Promise.all([lane(20), lane(20)]);
const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all([lane(pages / 2), lane(pages / 2)]);
const used = process.cpuUsage(cpu);
console.log(
  `${fileURLToPath(dist)}: CPU ${((used.user + used.system) / 1000 / pages).toFixed(2)} ms/page, ` +
    `wall ${((performance.now() - started) / pages).toFixed(2)} ms/page, ` +
    `RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`,
);
await pool.close();
