/**
 * The cost of the page-kind passes issue 28 added to the extractor (script-shown.ts,
 * product-page.ts) beside the parse they follow, per WCXB page, in process:
 *
 *   node --import tsx bench/markdown/page-kind-passes.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { findFirst, parseDocument } from '../../src/markdown/dom.js';
import { textLength } from '../../src/markdown/measure.js';
import { dropBesideProduct, isProductPage } from '../../src/markdown/product-page.js';
import { showScriptShownContent } from '../../src/markdown/script-shown.js';

const dir = '/work/shared/corpus/wcxb';
const newMs: number[] = [];
const parseMs: number[] = [];
for (const f of readdirSync(dir).filter((f) => f.endsWith('.html.gz'))) {
  const html = gunzipSync(readFileSync(`${dir}/${f}`)).toString('utf8');
  let t = performance.now();
  const doc = parseDocument(html);
  parseMs.push(performance.now() - t);
  const body = findFirst(doc.root, 'body') ?? doc.root;
  const length = textLength(body);
  t = performance.now();
  showScriptShownContent(body, length);
  if (isProductPage(doc.root, doc.jsonLd)) dropBesideProduct(body, length);
  newMs.push(performance.now() - t);
}
const at = (a: number[], q: number) =>
  (a.sort((x, y) => x - y)[Math.floor(a.length * q)] ?? 0).toFixed(2);
const med = (a: number[]) => at(a, 0.5);
const p90 = (a: number[]) => at(a, 0.9);
console.log(
  `pages ${newMs.length}; new passes ms median ${med(newMs)} p90 ${p90(newMs)} max ${Math.max(...newMs).toFixed(2)}; parse ms median ${med(parseMs)} p90 ${p90(parseMs)}`,
);
