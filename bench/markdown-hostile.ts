/**
 * Hostile page shapes: does any pass of the converter grow faster than the page?
 *
 *   node --import tsx bench/markdown-hostile.ts [--against /work/main] [--only a,b] [--scale 1]
 *
 * Each shape (deep nesting, long runs, many siblings, long attributes) is built at two sizes,
 * n and 2n, and converted once by this tree (and by --against's htmlToMarkdown, alternating)
 * after a warm-up. Printed per converter: the time at each size, their ratio (about 2 for a
 * linear pass, 4 for a quadratic one) and the output's length. --scale multiplies every n
 * (0.25 keeps a quadratic tree's run short).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { htmlToMarkdown } from '../src/markdown/index.js';
import { loadAverage } from './lib/load.js';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    only: { type: 'string' },
    scale: { type: 'string', default: '1' },
  },
});
type Convert = (html: string, pageUrl: string) => string;

const PROSE = 'The quick brown fox jumps over the lazy dog and keeps running far away. ';
const LONG = PROSE.repeat(3_000); // about 216 KB of text
const page = (body: string) => `<html><head><title>T</title></head><body>${body}</body></html>`;
const deep = (open: string, n: number, inside: string) => page(`${open.repeat(n)}${inside}`);

/** Each shape: the page at size n, and the n to start from. */
const SHAPES: Record<string, { n: number; page: (n: number) => string }> = {
  'quotes, a paragraph each': { n: 250, page: (n) => deep('<blockquote><p>level text</p>', n, '') },
  'quotes around a long text': { n: 100, page: (n) => deep('<blockquote>', n, `<p>${LONG}</p>`) },
  'lists, an item each': { n: 250, page: (n) => deep('<ul><li>item text', n, '') },
  'lists around a long text': { n: 100, page: (n) => deep('<ul><li>', n, `<p>${LONG}</p>`) },
  'links and emphasis around a long text': {
    n: 100,
    page: (n) => page(`<p>${'<a href="/x"><b><i>'.repeat(n)}${LONG}</p>`),
  },
  'h2s around a long text': { n: 100, page: (n) => deep('<h2><span>', n, LONG) },
  'h1s around a long text': { n: 100, page: (n) => deep('<h1><span>', n, LONG) },
  'figures around a long text': {
    n: 100,
    page: (n) => deep('<figure><img src="/i.png"><figcaption>', n, LONG),
  },
  'divs around a long text': { n: 250, page: (n) => deep('<div>', n, `<p>${LONG}</p>`) },
  'tables around a long text': { n: 100, page: (n) => deep('<table><tr><td>', n, LONG) },
  'pictures in a row': {
    n: 2_000,
    page: (n) => page(`<p>${PROSE}</p>${'<img src="/i.png" alt="x">'.repeat(n)}`),
  },
  'blank lines in a code block': { n: 20_000, page: (n) => page(`<pre>a${'\n'.repeat(n)}b</pre>`) },
  'spaces over elements, in bold, before a break': {
    n: 20_000,
    page: (n) => page(`<p><b>a${'<span> </span>'.repeat(n)}b</b>${'<i> </i>'.repeat(n)}<br>c</p>`),
  },
  'sibling paragraphs': {
    n: 25_000,
    page: (n) => page(`<article>${`<p>${PROSE}</p>`.repeat(n)}</article>`),
  },
  'sibling links': { n: 25_000, page: (n) => page(`<p>${'<a href="/x">link</a> '.repeat(n)}</p>`) },
  'table rows': {
    n: 25_000,
    page: (n) => page(`<table>${'<tr><td>c</td><td>d</td></tr>'.repeat(n)}</table>`),
  },
  'one text node': { n: 25_000, page: (n) => page(`<p>${PROSE.repeat(n)}</p>`) },
  'long attribute values': {
    n: 500_000,
    page: (n) => page(`<p class="${'c '.repeat(n)}">${PROSE}</p><a href="/${'a'.repeat(n)}">l</a>`),
  },
};

const converters: Array<{ name: string; convert: Convert }> = [
  { name: 'this tree', convert: htmlToMarkdown },
];
if (values.against) {
  const url = pathToFileURL(`${values.against}/src/markdown/index.ts`).href;
  const other = (await import(url)) as { htmlToMarkdown: Convert };
  converters.push({ name: values.against, convert: other.htmlToMarkdown });
}
const scale = Number(values.scale) || 1;
const only = values.only?.split(',');

process.stdout.write(`load average at start ${loadAverage()}\n`);
for (const c of converters) c.convert(SHAPES['sibling paragraphs']?.page(500) ?? '', 'http://x/');
for (const [name, shape] of Object.entries(SHAPES)) {
  if (only && !only.some((o) => name.includes(o))) continue;
  const sizes = [shape.n, 2 * shape.n].map((n) => Math.max(1, Math.round(n * scale)));
  const pages = sizes.map((n) => shape.page(n));
  const times = converters.map(() => [] as number[]);
  const lengths = converters.map(() => 0);
  pages.forEach((html, s) => {
    for (let k = 0; k < converters.length; k++) {
      const c = (k + s) % converters.length;
      const t0 = performance.now();
      lengths[c] = (converters[c] as { convert: Convert }).convert(html, 'http://x/').length;
      times[c]?.push(performance.now() - t0);
    }
  });
  const kb = pages.map((p) => `${(p.length / 1024).toFixed(0)} KB`).join(' / ');
  process.stdout.write(`${name} (n ${sizes.join(' / ')}, ${kb})\n`);
  converters.forEach((c, k) => {
    const [a = 0, b = 0] = times[k] ?? [];
    process.stdout.write(
      `  ${c.name}: ${a.toFixed(0)} / ${b.toFixed(0)} ms, ×${(b / a).toFixed(1)}; markdown ${lengths[k]} chars\n`,
    );
  });
}
process.stdout.write(`load average at end ${loadAverage()}\n`);
