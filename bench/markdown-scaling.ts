/**
 * Markdown conversion time against page size: does it grow linearly?
 *
 *   node --import tsx bench/markdown-scaling.ts [--repeat 5] [--max-flat 100000]
 *
 * Two synthetic pages: "flat" is N copies of a short paragraph with bold text and a link
 * (a long forum thread or docs page); "nested" is N unclosed <div>s then text (hostile
 * nesting). Each size is converted --repeat times in this process after one untimed
 * warm-up; the median is reported with time per KB, and the exponent k of time ∝ size^k
 * is fitted by least squares on log-log per case (1 = linear, 2 = quadratic).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { htmlToMarkdown } from '../src/markdown/index.js';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '5' },
    'max-flat': { type: 'string', default: '100000' },
  },
});
const repeat = Math.max(1, Number(values.repeat) || 5);
const maxFlat = Number(values['max-flat']) || 100_000;

const flat = (n: number) =>
  `<html><head><title>Thread</title></head><body>${'<div><p>para <b>bold</b> and <a href="/x">link</a></p></div>'.repeat(n)}</body></html>`;
const nested = (n: number) =>
  `<html><head><title>Deep</title></head><body>${'<div>'.repeat(n)}text at the bottom</body></html>`;

interface Case {
  name: string;
  sizes: number[];
  page: (n: number) => string;
}
const cases: Case[] = [
  { name: 'flat', sizes: [1_000, 10_000, 100_000].filter((n) => n <= maxFlat), page: flat },
  { name: 'nested', sizes: [10_000, 50_000], page: nested },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Least-squares slope of log(ms) on log(bytes). */
function exponent(points: { bytes: number; ms: number }[]): number {
  const xs = points.map((p) => Math.log(p.bytes));
  const ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  return den ? num / den : Number.NaN;
}

htmlToMarkdown(flat(2_000), 'http://localhost/'); // JIT warm-up
for (const c of cases) {
  const points: { bytes: number; ms: number }[] = [];
  for (const n of c.sizes) {
    const html = c.page(n);
    const runs: number[] = [];
    let outLength = 0;
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      outLength = htmlToMarkdown(html, 'http://localhost/').length;
      runs.push(performance.now() - t0);
    }
    const ms = median(runs);
    const kb = Buffer.byteLength(html) / 1024;
    points.push({ bytes: kb * 1024, ms });
    process.stdout.write(
      `${c.name.padEnd(7)} N=${String(n).padStart(6)} ${kb.toFixed(0).padStart(6)} KB  ` +
        `median ${ms.toFixed(1).padStart(8)} ms  ${((ms / kb) * 1000).toFixed(1).padStart(7)} µs/KB  ` +
        `(runs ${runs.map((r) => r.toFixed(0)).join(' ')}; markdown ${outLength} chars)\n`,
    );
  }
  if (points.length > 1) {
    process.stdout.write(`${c.name}: fitted exponent ${exponent(points).toFixed(2)}\n`);
  }
}
