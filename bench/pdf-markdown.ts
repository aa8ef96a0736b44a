/**
 * PDF → Markdown against poppler's `pdftotext -layout`: word F1 (multisets of words, so the
 * layout's column order does not count) and conversion time per page, over every .pdf (or
 * .pdf.gz) in the directory given.
 *
 *   npx tsx bench/pdf-markdown.ts /tmp/pdfs [maxPages]
 *
 * Each PDF is also read by bare pdfjs (getTextContent of the same pages, in the same run):
 * the ratio says what our layout costs on top, whatever the machine's load.
 *
 * Needs pdftotext (apt-get install -y poppler-utils). Markdown's own marks (#, list marks,
 * table rules, link targets) are taken out before counting.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadPdfjs, pdfToMarkdown } from '../src/documents/pdf-markdown.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/pdf-markdown.ts <dir of PDFs> [maxPages]');
const maxPages = Number(process.argv[3] ?? 1000);

function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u)) {
    if (w) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
  }
  return counts;
}

function plain(markdown: string): string {
  return markdown.replace(/\]\([^)]*\)/g, ' ').replace(/^\|( --- \|)+$/gm, ' ');
}

function f1(ours: Map<string, number>, theirs: Map<string, number>) {
  let common = 0;
  let a = 0;
  let b = 0;
  for (const n of ours.values()) a += n;
  for (const n of theirs.values()) b += n;
  for (const [w, n] of ours) common += Math.min(n, theirs.get(w) ?? 0);
  const precision = a ? common / a : 0;
  const recall = b ? common / b : 0;
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

async function bareTextMs(bytes: Uint8Array, pages: number): Promise<number> {
  const lib = await loadPdfjs();
  const started = performance.now();
  const doc = await lib.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  for (let n = 1; n <= pages; n++) await (await doc.getPage(n)).getTextContent();
  await doc.destroy();
  return performance.now() - started;
}

const files = readdirSync(dir)
  .filter((f) => /\.pdf(\.gz)?$/i.test(f))
  .sort();
const scores: number[] = [];
const perPage: number[] = [];
const ratios: number[] = [];
let pagesTotal = 0;
for (const file of files) {
  const raw = readFileSync(join(dir, file));
  const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  const started = performance.now();
  let converted: Awaited<ReturnType<typeof pdfToMarkdown>>;
  try {
    converted = await pdfToMarkdown(bytes, maxPages);
  } catch (error) {
    console.log(`${file}\tfailed: ${(error as Error).message}`);
    continue;
  }
  const ms = performance.now() - started;
  // the floor: pdfjs's own text extraction of the same pages, nothing of ours
  const bare = await bareTextMs(bytes, Math.min(Number(converted.metadata.numPages), maxPages));
  const pages = Math.min(Number(converted.metadata.numPages), maxPages);
  const reference = execFileSync('pdftotext', ['-layout', '-l', String(pages), '-', '-'], {
    input: bytes,
    maxBuffer: 1 << 28,
  }).toString('utf8');
  const score = f1(words(plain(converted.markdown)), words(reference));
  scores.push(score);
  perPage.push(ms / pages);
  ratios.push(ms / bare);
  pagesTotal += pages;
  console.log(
    `${file}\tpages ${pages}\tF1 ${score.toFixed(3)}\t${(ms / pages).toFixed(1)} ms/page`,
  );
}
console.log(
  `\n${scores.length} PDFs, ${pagesTotal} pages: F1 median ${median(scores).toFixed(3)}, min ${Math.min(...scores).toFixed(3)}, mean ${(scores.reduce((s, x) => s + x, 0) / scores.length).toFixed(3)}; ms/page median ${median(perPage).toFixed(1)}, max ${Math.max(...perPage).toFixed(1)}; conversion / bare pdfjs getTextContent median ×${median(ratios).toFixed(2)}`,
);
