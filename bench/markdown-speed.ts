/**
 * The converter's speed over every corpus page, against another tree's copy in the same run,
 * and whether both give the same bytes.
 *
 *   node --import tsx bench/markdown-speed.ts [--against /work/main] [--rounds 3]
 *     [--corpora a,b,c] [--save FILE] [--check FILE] [--only ID]
 *
 * Every page is decoded as the service decodes it, then converted by this tree's
 * htmlToMarkdown and (with --against) the other tree's, alternating which goes first, each
 * round. Timings are per page (wall and CPU), summarised per converter and round; the ratio of
 * medians in the same round is the figure to compare on a shared machine.
 * With --against, a page whose two outputs differ is listed (a speed change must keep them
 * byte-identical). --save writes each page's SHA-256 of the output to FILE; --check compares
 * this tree's outputs with such a file. --only keeps the pages whose key holds the text (for
 * --cpu-prof); --slowest N lists the N pages with most CPU time in the last round.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { htmlToMarkdown } from '../src/markdown/index.js';
import { decodeBody } from '../src/scrape/net/charset.js';
import { loadAverage } from './lib/load.js';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    corpora: { type: 'string', default: 'articles,readability,segments,wcxb' },
    root: { type: 'string', default: '/work/shared/corpus' },
    save: { type: 'string' },
    check: { type: 'string' },
    only: { type: 'string' },
    slowest: { type: 'string', default: '0' },
  },
});

type Convert = (html: string, pageUrl: string) => string;
interface Page {
  key: string;
  url: string;
  html: string;
}

function loadPages(name: string): Page[] {
  const dir = resolve(values.root ?? '', name);
  const segments = name === 'segments';
  const truth = JSON.parse(
    readFileSync(join(dir, segments ? 'evaldata.json' : 'ground-truth.json'), 'utf8'),
  ) as Record<string, { url: string }>;
  // Decoded once, outside the timing: the service decodes before the worker converts.
  const contentType = segments ? 'text/html' : 'text/html; charset=utf-8';
  return Object.keys(truth)
    .sort()
    .map((id) => {
      const url = truth[id]?.url ?? '';
      const bytes = gunzipSync(readFileSync(join(dir, `${id}.html.gz`)));
      return {
        key: `${name}/${id}`,
        url: /^https?:/.test(url) ? url : 'http://localhost/',
        html: decodeBody(bytes, contentType).text,
      };
    });
}

let pages = (values.corpora ?? '').split(',').filter(Boolean).flatMap(loadPages);
if (values.only) pages = pages.filter((p) => p.key.includes(values.only as string));

const converters: Array<{ name: string; convert: Convert }> = [
  { name: 'this tree', convert: htmlToMarkdown },
];
if (values.against) {
  const other = pathToFileURL(resolve(values.against, 'src/markdown/index.ts')).href;
  const module = (await import(other)) as { htmlToMarkdown: Convert };
  converters.push({ name: values.against, convert: module.htmlToMarkdown });
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function summary(list: number[]) {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9), max: sorted.at(-1) ?? 0 };
}
const fmt = (s: { median: number; p90: number; max: number }) =>
  `median ${s.median.toFixed(2)} p90 ${s.p90.toFixed(1)} max ${s.max.toFixed(1)}`;

process.stdout.write(`${pages.length} pages; load average at start ${loadAverage()}\n`);
const hashes: Record<string, string> = {};
const differing = new Set<string>();
const rounds = Number(values.rounds) || 1;
const roundMedians = converters.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  const wall = converters.map(() => [] as number[]);
  const cpu = converters.map(() => [] as number[]);
  const slowest = converters.map(() => ({ key: '', ms: 0 }));
  pages.forEach((page, i) => {
    const outputs: string[] = [];
    for (let k = 0; k < converters.length; k++) {
      // Alternate which converter goes first, so neither always runs on a warmer cache.
      const c = (k + i + round) % converters.length;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      outputs[c] = (converters[c] as { convert: Convert }).convert(page.html, page.url);
      const used = process.cpuUsage(c0);
      const ms = performance.now() - t0;
      wall[c]?.push(ms);
      cpu[c]?.push((used.user + used.system) / 1000);
      if (ms > (slowest[c]?.ms ?? 0)) slowest[c] = { key: page.key, ms };
    }
    if (round === 0) {
      hashes[page.key] = sha(outputs[0] ?? '');
      if (outputs.length > 1 && outputs[0] !== outputs[1]) differing.add(page.key);
    }
  });
  converters.forEach((c, k) => {
    const w = summary(wall[k] ?? []);
    const u = summary(cpu[k] ?? []);
    roundMedians[k]?.wall.push(w.median);
    roundMedians[k]?.cpu.push(u.median);
    process.stdout.write(
      `round ${round + 1} ${c.name}: wall ${fmt(w)}; cpu ${fmt(u)}; slowest ${slowest[k]?.key}\n`,
    );
    if (round === rounds - 1 && Number(values.slowest) > 0) {
      const ranked = pages.map((p, i) => ({ key: p.key, ms: cpu[k]?.[i] ?? 0 }));
      ranked.sort((a, b) => b.ms - a.ms);
      for (const { key, ms } of ranked.slice(0, Number(values.slowest))) {
        process.stdout.write(`  cpu ${ms.toFixed(1)} ms ${key}\n`);
      }
    }
  });
}
if (converters.length > 1) {
  const ratio = (k: 'wall' | 'cpu') =>
    (roundMedians[0]?.[k] ?? [])
      .map((m, r) => (m / (roundMedians[1]?.[k][r] ?? 1)).toFixed(2))
      .join(', ');
  process.stdout.write(
    `this tree / other, median per round: wall ${ratio('wall')}; cpu ${ratio('cpu')}\n`,
  );
  process.stdout.write(`outputs differing: ${differing.size} of ${pages.length}\n`);
  for (const key of differing) process.stdout.write(`  differs: ${key}\n`);
}
if (values.save) writeFileSync(values.save, JSON.stringify(hashes, null, 1));
if (values.check) {
  const saved = JSON.parse(readFileSync(values.check, 'utf8')) as Record<string, string>;
  const changed = Object.keys(hashes).filter((key) => saved[key] !== hashes[key]);
  process.stdout.write(`against ${values.check}: ${changed.length} of ${pages.length} changed\n`);
  for (const key of changed) process.stdout.write(`  changed: ${key}\n`);
}
process.stdout.write(`load average at end ${loadAverage()}\n`);
