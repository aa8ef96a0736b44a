/**
 * Kept results as rows against kept results as files (issue 26, point 3), on the embedded
 * engine, in one run: N distinct 100 KB pages kept 8 per turn (as concurrent scrapes keep
 * them), then flushed; per mode the main thread's CPU per result (this process: the writes
 * are behind the answer, but they share the event loop with it) and what the data folder grew
 * by: the database (pagegrab.db and its write-ahead log) and the results folder.
 *   node --import tsx bench/kept-result-files.ts [--results 1000] [--rounds 3]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/db.js';
import { newId } from '../src/store/ids.js';
import { KeptResults } from '../src/store/kept-results.js';
import { ResultFiles } from '../src/store/result-files.js';

const { values } = parseArgs({
  options: {
    results: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
  },
});
const count = Number(values.results);
const rounds = Number(values.rounds);

/** 100 KB of HTML that compresses as pages do (repeated markup, varying text). */
function page(seed: number): Buffer {
  const rows = Array.from(
    { length: 2000 },
    (_, i) => `<li class="item"><a href="/p/${seed}-${i}">Item ${i * seed}</a></li>`,
  );
  return Buffer.from(`<html><body><ul>${rows.join('')}</ul></body></html>`).subarray(0, 100_000);
}
const pages = Array.from({ length: count }, (_, i) => page(i + 1));

function bytesUnder(path: string): number {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const databaseBytes = (dir: string) =>
  bytesUnder(join(dir, 'pagegrab.db')) + bytesUnder(join(dir, 'pagegrab.db-wal'));

type Mode = 'rows' | 'files';
const figures: Record<Mode, { cpuMs: number; dbKb: number; filesKb: number }[]> = {
  rows: [],
  files: [],
};
for (let round = 0; round < rounds; round++) {
  for (const mode of (round % 2 ? ['files', 'rows'] : ['rows', 'files']) as Mode[]) {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrab-kept-'));
    const store = await openStore({ databaseUrl: null, dataDir: dir });
    const before = databaseBytes(dir);
    const kept = new KeptResults(store, {
      files: mode === 'files' ? new ResultFiles(join(dir, 'results')) : null,
    });
    const cpu = process.cpuUsage();
    for (let i = 0; i < count; i += 8) {
      for (const body of pages.slice(i, i + 8))
        kept.keep({ requestId: newId(), accountId: 'bench', contentType: 'text/html', body });
      await new Promise((done) => setImmediate(done));
      if (i % 64 === 56) await kept.flush();
    }
    await kept.flush();
    const used = process.cpuUsage(cpu);
    figures[mode].push({
      cpuMs: (used.user + used.system) / 1000 / count,
      dbKb: (databaseBytes(dir) - before) / 1024,
      filesKb: bytesUnder(join(dir, 'results')) / 1024,
    });
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const median = (numbers: number[]) =>
  [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;
console.log(`kept-result-files: ${count} distinct 100 KB results, ${rounds} round(s) (medians)`);
console.log('| kept as | CPU ms/result (this process) | database growth KB | results folder KB |');
console.log('|---|---|---|---|');
for (const mode of ['rows', 'files'] as Mode[]) {
  const rows = figures[mode];
  console.log(
    `| ${mode} | ${median(rows.map((r) => r.cpuMs)).toFixed(3)} | ${median(rows.map((r) => r.dbKb)).toFixed(0)} | ${median(rows.map((r) => r.filesKb)).toFixed(0)} |`,
  );
}
