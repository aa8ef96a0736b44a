/**
 * The cost of the service around a plain fetch: /api/scraper?url=<local 100 KB page> on the
 * real service against a bare node:http server that fetches the same page with undici and
 * returns it, at concurrency 1, 8 and 32, in one run. The service runs twice: DATA_DIR on
 * disk (the default: two SQLite transactions per scrape, synchronous=FULL, so two fsyncs)
 * and DATA_DIR on tmpfs (/dev/shm: fsync costs nothing), which isolates the fsync share.
 * Every server, the fixture site included, is its own child process.
 *   node --import tsx bench/scrape-fetch.ts [--seconds 5]
 * Targets: service >= 0.85x bare throughput, p50 added <= 2 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type ChildServer, startChildServer } from './lib/child-server.js';
import { cpuSeconds, type LoadResult, loadAverage, runLoad } from './lib/load.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const durationMs = Number(values.seconds) * 1000;
const LEVELS = [1, 8, 32];

const fixture = await startChildServer('fixture');
const page = encodeURIComponent(`${fixture.url}/big`);
const dirs = [
  mkdtempSync(join(tmpdir(), 'pagegrab-bench-')),
  mkdtempSync('/dev/shm/pagegrab-bench-'),
];
const servers: [string, () => Promise<ChildServer>][] = [
  ['bare undici', () => startChildServer('bare-fetch')],
  ['service, DATA_DIR on disk', () => startChildServer('service', [dirs[0] as string])],
  ['service, DATA_DIR on tmpfs', () => startChildServer('service', [dirs[1] as string])],
];
type Row = LoadResult & { cpuMsPerRequest: number };
const results = new Map<string, Row[]>();
try {
  for (const [name, start] of servers) {
    const server = await start();
    try {
      const rows: Row[] = [];
      for (const connections of LEVELS) {
        const path = server.apiKey
          ? `/api/scraper?api_key=${server.apiKey}&url=${page}`
          : `/?url=${page}`;
        const cpuBefore = cpuSeconds(server.pid);
        const result = await runLoad({ url: `${server.url}${path}`, connections, durationMs });
        // Warm-up requests count in the CPU too: divide by every request sent.
        const cpuMs = (cpuSeconds(server.pid) - cpuBefore) * 1000;
        rows.push({ ...result, cpuMsPerRequest: cpuMs / result.sent });
      }
      results.set(name, rows);
    } finally {
      await server.stop();
    }
  }
} finally {
  await fixture.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const bare = results.get('bare undici') as Row[];
console.log(`scrape-fetch: 100 KB page, ${durationMs / 1000} s per level, load ${loadAverage()}`);
console.log(
  '| server | conc | req/s | x bare | p50 ms | p50 added | p99 ms | server CPU ms/req | errors |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, rows] of results) {
  rows.forEach((r, i) => {
    const b = bare[i] as Row;
    console.log(
      `| ${name} | ${LEVELS[i]} | ${r.rps.toFixed(0)} | ${(r.rps / b.rps).toFixed(2)} | ` +
        `${r.p50Ms.toFixed(2)} | ${(r.p50Ms - b.p50Ms).toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.errors} |`,
    );
  });
}
