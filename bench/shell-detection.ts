/**
 * The door's shell detection (src/scrape/engines/needs-javascript.ts) on real pages: the
 * share of the corpus it would render (every corpus page is a server-rendered page, so each
 * one rendered is a false positive), the pages it would, and what it costs on the event loop
 * per page (median and p95 of each page's best of --rounds timings).
 *   node --import tsx bench/shell-detection.ts [--corpus /work/shared/corpus] [--rounds 5]
 * Pages are read as latin1 (every byte one character): the detector looks at markup and
 * counts characters, so the encoding does not change what it sees.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { needsJavascript } from '../src/scrape/engines/needs-javascript.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: '/work/shared/corpus' },
    rounds: { type: 'string', default: '5' },
  },
});
const rounds = Math.max(1, Number(values.rounds));

interface Page {
  id: string;
  html: string;
}

function pagesOf(root: string): Page[] {
  const pages: Page[] = [];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(root, folder.name)).sort()) {
      if (!file.endsWith('.html.gz')) continue;
      const bytes = gunzipSync(readFileSync(join(root, folder.name, file)));
      pages.push({ id: `${folder.name}/${file}`, html: bytes.toString('latin1') });
    }
  }
  return pages;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

const pages = pagesOf(values.corpus);
const rendered: string[] = [];
const micros: number[] = [];
for (const page of pages) {
  let best = Number.POSITIVE_INFINITY;
  let shell = false;
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    shell = needsJavascript({ html: page.html, contentType: 'text/html' });
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000);
  }
  micros.push(best);
  if (shell) rendered.push(page.id);
}
micros.sort((a, b) => a - b);
const share = (100 * rendered.length) / pages.length;
console.log(`pages: ${pages.length}, rendered: ${rendered.length} (${share.toFixed(2)}%)`);
for (const id of rendered) console.log(`  rendered: ${id}`);
console.log(
  `µs/page: median ${quantile(micros, 0.5).toFixed(1)}, p95 ${quantile(micros, 0.95).toFixed(1)}, max ${(micros.at(-1) ?? 0).toFixed(1)}`,
);
