/**
 * Markdown quality bench: runs a converter in one process over a corpus folder
 * (ground-truth.json + <id>.html.gz), writes <outdir>/<id>.md, records per-page conversion
 * time, then scores the outputs with /work/shared/tools/score-markdown.mjs.
 *
 *   node --import tsx bench/markdown-quality.ts --corpus ../shared/corpus/articles
 *     [--out DIR] [--converter pagegrab|readability] [--scorer PATH] [--warmup N] [--verbose]
 *
 * Timing is per page inside this process, after converting the first N pages once untimed
 * (default 5) so that the JIT warm-up of a fresh process does not count as page time.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { htmlToMarkdown } from '../src/markdown/index.js';
import { readabilityTurndown } from './markdown/baseline-readability.js';

type Converter = (html: string, pageUrl: string) => string;
const CONVERTERS: Record<string, Converter> = {
  pagegrab: htmlToMarkdown,
  readability: readabilityTurndown,
};

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    out: { type: 'string' },
    converter: { type: 'string', default: 'pagegrab' },
    scorer: { type: 'string', default: '/work/shared/tools/score-markdown.mjs' },
    verbose: { type: 'boolean', default: false },
    warmup: { type: 'string', default: '5' },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: bench/markdown-quality.ts --corpus DIR [--out DIR] [--converter]\n');
  process.exit(2);
}
const converter = CONVERTERS[values.converter ?? 'pagegrab'];
if (!converter) {
  process.stderr.write(`unknown converter ${values.converter}\n`);
  process.exit(2);
}
const corpus = resolve(values.corpus);
const outDir = resolve(
  values.out ?? join(tmpdir(), `markdown-bench-${basename(corpus)}-${values.converter}`),
);
mkdirSync(outDir, { recursive: true });

const truth = JSON.parse(readFileSync(join(corpus, 'ground-truth.json'), 'utf8')) as Record<
  string,
  { url: string }
>;
const ids = Object.keys(truth).sort();
const readPage = (id: string) =>
  gunzipSync(readFileSync(join(corpus, `${id}.html.gz`))).toString('utf8');
for (const id of ids.slice(0, Number(values.warmup) || 0)) {
  converter(readPage(id), truth[id]?.url ?? 'http://localhost/');
}
// CPU time is reported beside wall time: on a shared, loaded machine wall time mostly
// measures the neighbours.
const times: { id: string; ms: number; cpuMs: number }[] = [];
for (const id of ids) {
  const html = readPage(id);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const md = converter(html, truth[id]?.url ?? 'http://localhost/');
  const c1 = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  times.push({ id, ms, cpuMs: (c1.user + c1.system) / 1000 });
  writeFileSync(join(outDir, `${id}.md`), md);
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} p90 ${at(0.9).toFixed(1)} max ${(sorted.at(-1) ?? 0).toFixed(1)}`;
}
const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a), { id: '', ms: 0, cpuMs: 0 });

const args = [values.scorer ?? '', '--corpus', corpus, '--outputs', outDir];
if (values.verbose) args.push('--verbose');
const scored = spawnSync(process.execPath, args, { encoding: 'utf8' });
const lines = scored.stdout.trim().split('\n');
if (values.verbose) process.stdout.write(`${lines.slice(0, -1).join('\n')}\n`);
process.stdout.write(`${lines.at(-1) ?? scored.stderr}\n`);
process.stdout.write(
  `timing ms/page (${values.converter}, ${times.length} pages): wall ${stats(times.map((t) => t.ms))}; ` +
    `cpu ${stats(times.map((t) => t.cpuMs))}; slowest ${slowest.id}; outputs in ${outDir}\n`,
);
