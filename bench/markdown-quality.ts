/**
 * Markdown quality bench: the four shared corpora (articles, readability, segments, wcxb)
 * scored in one run, and the per-page conversion time in process.
 *
 *   node scripts/build.mjs   # the API mode runs the built service
 *   node --import tsx bench/markdown-quality.ts [--mode api|process] [--corpora a,b,c]
 *     [--out DIR] [--converter pagegrab|readability] [--worst N] [--warmup N] [--jobs N]
 *     [--halves]
 *
 * --mode api (default): the built service runs as a child process (bench/lib/servers.ts), the
 * corpus pages are served from a loopback server in this process (articles and readability
 * as `text/html; charset=utf-8`, as they are stored; segments with their original bytes as
 * bare `text/html`, so that the page's own declaration or sniffing decides), and each page is
 * scraped with `markdown=true&render=false` through /api/scraper. Then the same pages are
 * converted in this process, untimed warm-up first, for the per-page time. The API's own time
 * per page (request to last byte: the fetch from loopback, the output worker pool's queue and
 * conversion, the answer) is printed too; --jobs 1 leaves out the queue.
 * --mode process: only the in-process conversion (decoded as the service decodes), scored;
 * quick to iterate with. --converter readability is process mode only.
 *
 * Scores: /work/shared/tools/score-markdown.mjs (articles, readability: markdown-f1),
 * score-segments.mjs (segments: segments-f1; --worst N lists the pages with most misses) and
 * score-wcxb.mjs (wcxb: wcxb-f1 and its per-page-type line).
 * --halves: each corpus also scored on its two fixed halves (A: the first byte of the SHA-256
 * of the page id is even; B: odd), so that a rule tuned on A and checked on B shows the gap.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { htmlToMarkdown } from '../src/markdown/index.js';
import { decodeBody } from '../src/scrape/net/charset.js';
import { startChildServer } from './lib/child-server.js';
import { loadAverage } from './lib/load.js';
import { readabilityTurndown } from './markdown/baseline-readability.js';

type Converter = (html: string, pageUrl: string) => string;
const CONVERTERS: Record<string, Converter> = {
  pagegrab: htmlToMarkdown,
  readability: readabilityTurndown,
};

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'api' },
    corpora: { type: 'string', default: 'articles,readability,segments,wcxb' },
    root: { type: 'string', default: '/work/shared/corpus' },
    tools: { type: 'string', default: '/work/shared/tools' },
    out: { type: 'string' },
    converter: { type: 'string', default: 'pagegrab' },
    worst: { type: 'string', default: '0' },
    warmup: { type: 'string', default: '5' },
    jobs: { type: 'string', default: '4' },
    halves: { type: 'boolean', default: false },
  },
});
const converter = CONVERTERS[values.converter ?? 'pagegrab'];
if (!converter || (values.mode !== 'api' && values.mode !== 'process')) {
  process.stderr.write('usage: bench/markdown-quality.ts [--mode api|process] [--converter]\n');
  process.exit(2);
}
if (values.mode === 'api' && values.converter !== 'pagegrab') {
  process.stderr.write('--converter other than pagegrab needs --mode process\n');
  process.exit(2);
}

interface Page {
  id: string;
  url: string;
  bytes: Buffer;
  /** The Content-Type the page is served with (and decoded by, in process). */
  contentType: string;
}
interface Corpus {
  name: string;
  dir: string;
  kind: 'markdown' | 'segments' | 'wcxb';
  pages: Page[];
}

function loadCorpus(name: string): Corpus {
  const dir = resolve(values.root ?? '', name);
  const segments = name === 'segments';
  const truth = JSON.parse(
    readFileSync(join(dir, segments ? 'evaldata.json' : 'ground-truth.json'), 'utf8'),
  ) as Record<string, { url: string }>;
  const pages = Object.keys(truth)
    .sort()
    .map((id) => ({
      id,
      url: truth[id]?.url ?? '',
      bytes: gunzipSync(readFileSync(join(dir, `${id}.html.gz`))),
      contentType: segments ? 'text/html' : 'text/html; charset=utf-8',
    }));
  const kind = segments ? 'segments' : name === 'wcxb' ? 'wcxb' : 'markdown';
  return { name, dir, kind, pages };
}

const corpora = (values.corpora ?? '').split(',').filter(Boolean).map(loadCorpus);
const outRoot = resolve(values.out ?? join(tmpdir(), `markdown-bench-${values.mode}`));
const outDir = (c: Corpus) => join(outRoot, c.name);
for (const c of corpora) mkdirSync(outDir(c), { recursive: true });

/** Converts a page as the service does: bytes decoded by their declaration, then Markdown. */
function convertInProcess(page: Page): string {
  const html = decodeBody(page.bytes, page.contentType).text;
  return (converter as Converter)(html, /^https?:/.test(page.url) ? page.url : 'http://localhost/');
}

/** Each page's scrape through the service, request to last byte (its queue in the pool too). */
const apiTimes: number[] = [];

async function scrapeThroughApi(): Promise<void> {
  const pages = new Map<string, Page>();
  for (const c of corpora) for (const p of c.pages) pages.set(`/${c.name}/${p.id}`, p);
  const site = createServer((req, res) => {
    const page = pages.get(req.url ?? '');
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page.contentType, 'content-length': page.bytes.length });
    res.end(page.bytes);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const service = await startChildServer('service');
  try {
    const queue = corpora.flatMap((c) => c.pages.map((p) => ({ c, p })));
    const failures: string[] = [];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const target = `${origin}/${next.c.name}/${next.p.id}`;
        const query = new URLSearchParams({
          api_key: service.apiKey ?? '',
          url: target,
          markdown: 'true',
          render: 'false',
        });
        const t0 = performance.now();
        const answer = await fetch(`${service.url}/api/scraper?${query}`);
        const body = await answer.text();
        apiTimes.push(performance.now() - t0);
        if (answer.status !== 200) failures.push(`${next.p.id}: ${answer.status} ${body}`);
        writeFileSync(join(outDir(next.c), `${next.p.id}.md`), answer.status === 200 ? body : '');
      }
    };
    await Promise.all(Array.from({ length: Number(values.jobs) || 4 }, worker));
    for (const f of failures) process.stdout.write(`API failure ${f}\n`);
  } finally {
    await service.stop();
    site.close();
  }
}

interface Timing {
  id: string;
  ms: number;
  cpuMs: number;
}

function timeInProcess(c: Corpus, write: boolean): Timing[] {
  for (const p of c.pages.slice(0, Number(values.warmup) || 0)) convertInProcess(p);
  const times: Timing[] = [];
  for (const p of c.pages) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const md = convertInProcess(p);
    const c1 = process.cpuUsage(c0);
    times.push({ id: p.id, ms: performance.now() - t0, cpuMs: (c1.user + c1.system) / 1000 });
    if (write) writeFileSync(join(outDir(c), `${p.id}.md`), md);
  }
  return times;
}

function stats(list: number[]): string {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} p90 ${at(0.9).toFixed(1)} max ${(sorted.at(-1) ?? 0).toFixed(1)}`;
}

const SCORERS = {
  markdown: 'score-markdown.mjs',
  segments: 'score-segments.mjs',
  wcxb: 'score-wcxb.mjs',
} as const;
const TRUTH_FILES = {
  markdown: 'ground-truth.json',
  segments: 'evaldata.json',
  wcxb: 'ground-truth.json',
} as const;

/** The scorer's last line (and, for wcxb, its per-type line before it). */
function score(c: Corpus, corpusDir = c.dir): string {
  const args = [join(values.tools ?? '', SCORERS[c.kind]), '--corpus', corpusDir];
  args.push('--outputs', outDir(c));
  const worst = Number(values.worst) > 0 && corpusDir === c.dir;
  if (worst) args.push('--worst', values.worst ?? '0');
  const scored = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const lines = scored.stdout.trim().split('\n');
  if (worst) process.stdout.write(`${lines.slice(0, -2).join('\n')}\n`);
  if (c.kind === 'wcxb') return `${lines.at(-1) ?? scored.stderr}\n  ${lines.at(-2) ?? ''}`;
  return lines.at(-1) ?? scored.stderr;
}

/** Half A or B of a page id: fixed by the id alone, whatever the corpus's order. */
const halfOf = (id: string): 'A' | 'B' =>
  ((createHash('sha256').update(id).digest()[0] as number) & 1) === 0 ? 'A' : 'B';

/** The corpus cut to one half: its truth file filtered, its pages linked. */
function halfCorpus(c: Corpus, half: 'A' | 'B'): string {
  const dir = join(outRoot, 'halves', `${c.name}-${half}`);
  mkdirSync(dir, { recursive: true });
  const file = TRUTH_FILES[c.kind];
  const truth = JSON.parse(readFileSync(join(c.dir, file), 'utf8')) as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(truth).filter(([id]) => halfOf(id) === half));
  writeFileSync(join(dir, file), JSON.stringify(kept));
  for (const id of Object.keys(kept)) {
    try {
      symlinkSync(join(c.dir, `${id}.html.gz`), join(dir, `${id}.html.gz`));
    } catch {
      // linked by an earlier run
    }
  }
  return dir;
}

process.stdout.write(`load average at start ${loadAverage()}\n`);
if (values.mode === 'api') await scrapeThroughApi();
const allTimes: Timing[] = [];
const lines: string[] = [];
for (const c of corpora) {
  const times = timeInProcess(c, values.mode === 'process');
  allTimes.push(...times);
  const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a), { id: '', ms: 0, cpuMs: 0 });
  lines.push(`${c.name} (${values.mode}): ${score(c)}`);
  if (values.halves) {
    for (const half of ['A', 'B'] as const) {
      lines.push(`  half ${half}: ${score(c, halfCorpus(c, half))}`);
    }
  }
  lines.push(
    `  in-process ms/page (${values.converter}, ${times.length} pages): wall ${stats(times.map((t) => t.ms))}; ` +
      `cpu ${stats(times.map((t) => t.cpuMs))}; slowest ${slowest.id}`,
  );
}
lines.push(
  `all ${allTimes.length} pages in process: wall ${stats(allTimes.map((t) => t.ms))}; ` +
    `cpu ${stats(allTimes.map((t) => t.cpuMs))}; load average at end ${loadAverage()}; outputs in ${outRoot}`,
);
if (apiTimes.length > 0) {
  lines.push(
    `all ${apiTimes.length} pages through the API (--jobs ${values.jobs} at once, ms from request ` +
      `to last byte): ${stats(apiTimes)}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
