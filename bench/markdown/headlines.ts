/**
 * Headline count: on every article-type page of the shared corpora that has an `<h1>`, is the
 * Markdown's first line `# ` and one of the page's h1 texts, and is it there once?
 *
 *   node --import tsx bench/markdown/headlines.ts [--root /work/shared/corpus] [--list]
 *
 * Article-type pages: all of articles/ and readability/, wcxb/'s pages of type article, and
 * segments/ (news, blogs, forums, shops: every page counts that has an h1). In process, pages
 * decoded as the service decodes them. A page missed whose truth has a reviewed `title`
 * (readability, wcxb) and whose first line says it is counted apart: its h1s name the site
 * (a blog's name, a logo) and the headline is the article's title; --list marks it `= title`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { descendants, parseDocument } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { innerText } from '../../src/markdown/measure.js';
import { decodeBody } from '../../src/scrape/net/charset.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '/work/shared/corpus' },
    list: { type: 'boolean', default: false },
  },
});
const root = values.root ?? '';
const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

for (const corpus of ['articles', 'readability', 'segments', 'wcxb']) {
  const segments = corpus === 'segments';
  const truth = JSON.parse(
    readFileSync(join(root, corpus, segments ? 'evaldata.json' : 'ground-truth.json'), 'utf8'),
  ) as Record<string, { url: string; type?: string; title?: string }>;
  let withH1 = 0;
  let kept = 0;
  let titled = 0;
  const lost: string[] = [];
  for (const id of Object.keys(truth).sort()) {
    const page = truth[id];
    if (!page || (page.type && page.type !== 'article')) continue;
    const bytes = gunzipSync(readFileSync(join(root, corpus, `${id}.html.gz`)));
    const html = decodeBody(bytes, segments ? 'text/html' : 'text/html; charset=utf-8').text;
    const h1s = descendants(parseDocument(html).root)
      .filter((el) => el.tag === 'h1')
      .map((el) => squash(innerText(el)))
      .filter(Boolean);
    if (h1s.length === 0) continue;
    withH1++;
    const md = htmlToMarkdown(html, /^https?:/.test(page.url) ? page.url : 'http://localhost/');
    const lines = md.split('\n');
    const first = lines[0] ?? '';
    const once = lines.filter((l) => l === first).length === 1;
    if (first.startsWith('# ') && h1s.includes(squash(first.slice(2))) && once) {
      kept++;
      continue;
    }
    const isTitle =
      first.startsWith('# ') && once && squash(first.slice(2)) === squash(page.title ?? '');
    if (isTitle) titled++;
    const mark = isTitle ? ' = title' : '';
    lost.push(`${id} ${JSON.stringify(first.slice(0, 80))}${mark} h1: ${JSON.stringify(h1s[0])}`);
  }
  process.stdout.write(
    `${corpus}: headline kept on ${kept} of ${withH1} article pages with an h1` +
      (titled ? `; ${titled} more start with the reviewed title instead of an h1\n` : '\n'),
  );
  if (values.list) for (const l of lost) process.stdout.write(`  ${l}\n`);
}
