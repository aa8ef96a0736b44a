import { type ComponentChild, h } from 'preact';

/**
 * A small Markdown renderer that builds Preact elements, never HTML strings: scraped text
 * can only ever become text nodes, and links only http(s)/mailto hrefs. Covers what the
 * service's Markdown output uses (contract 2.15): headings, paragraphs, lists, block
 * quotes, fenced code, GFM tables, rules, links, images, emphasis, inline code.
 * Images are shown as links, not loaded: the dashboard makes no requests to other hosts.
 */

type Node = ComponentChild;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function renderMarkdown(source: string): Node[] {
  return blocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes('|') && next !== undefined && TABLE_SEP.test(next) && next.includes('-'))
  );
}

function blocks(lines: string[]): Node[] {
  const out: Node[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const lang = line.slice(fence[0].length).trim();
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(marker))
        body.push(lines[i++] ?? '');
      i++;
      out.push(h('pre', null, h('code', lang ? { 'data-lang': lang } : null, body.join('\n'))));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push(h(`h${heading[1]?.length ?? 1}`, null, inline(heading[2] ?? '')));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(h('hr', null));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? ''))
        body.push((lines[i++] ?? '').replace(QUOTE, ''));
      out.push(h('blockquote', null, blocks(body)));
      continue;
    }
    if (ITEM.test(line)) {
      i = list(lines, i, out);
      continue;
    }
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && TABLE_SEP.test(next) && next.includes('-')) {
      i = table(lines, i, out);
      continue;
    }
    const para: string[] = [line];
    i++;
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !startsBlock(lines[i] ?? '', lines[i + 1])
    ) {
      para.push(lines[i++] ?? '');
    }
    out.push(h('p', null, inline(para.join('\n'))));
  }
  return out;
}

/** A list and its items; deeper-indented lines belong to the item above (nested lists). */
function list(lines: string[], start: number, out: Node[]): number {
  const first = ITEM.exec(lines[start] ?? '');
  const indent = first?.[1]?.length ?? 0;
  const ordered = /\d/.test(first?.[2] ?? '');
  const items: Node[] = [];
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i] ?? '');
    if (!m || (m[1]?.length ?? 0) !== indent || /\d/.test(m[2] ?? '') !== ordered) break;
    const body: string[] = [m[3] ?? ''];
    i++;
    while (i < lines.length) {
      const l = lines[i] ?? '';
      const lead = l.length - l.trimStart().length;
      if (l.trim() === '') {
        const after = lines[i + 1] ?? '';
        if (after.length - after.trimStart().length > indent && after.trim() !== '') {
          body.push('');
          i++;
          continue;
        }
        break;
      }
      if (lead <= indent && (ITEM.test(l) || startsBlock(l, lines[i + 1]))) break;
      body.push(l.slice(Math.min(lead, indent + 2)));
      i++;
    }
    const inner = blocks(body);
    // A tight item is just its text, not a paragraph inside the <li>.
    const only =
      inner.length === 1 && body.every((b) => b.trim() !== '') && !ITEM.test(body[0] ?? '');
    items.push(h('li', null, only && body.length === 1 ? inline(body[0] ?? '') : inner));
  }
  const startNo = ordered ? Number.parseInt(first?.[2] ?? '1', 10) : 1;
  out.push(h(ordered ? 'ol' : 'ul', ordered && startNo !== 1 ? { start: startNo } : null, items));
  return i;
}

function cells(row: string): string[] {
  const t = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return t.split(/(?<!\\)\|/).map((c) => c.trim().replaceAll('\\|', '|'));
}

function table(lines: string[], start: number, out: Node[]): number {
  const head = cells(lines[start] ?? '');
  const aligns = cells(lines[start + 1] ?? '').map((c) =>
    c.startsWith(':') && c.endsWith(':')
      ? 'center'
      : c.endsWith(':')
        ? 'right'
        : c.startsWith(':')
          ? 'left'
          : undefined,
  );
  let i = start + 2;
  const rows: string[][] = [];
  while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== '')
    rows.push(cells(lines[i++] ?? ''));
  const style = (k: number) => (aligns[k] ? { style: { textAlign: aligns[k] } } : null);
  out.push(
    h(
      'div',
      { class: 'md-table' },
      h(
        'table',
        null,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            head.map((c, k) => h('th', style(k), inline(c))),
          ),
        ),
        h(
          'tbody',
          null,
          rows.map((r) =>
            h(
              'tr',
              null,
              head.map((_, k) => h('td', style(k), inline(r[k] ?? ''))),
            ),
          ),
        ),
      ),
    ),
  );
  return i;
}

/** Only these schemes become live links; anything else (javascript:, data:) stays text. */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:'
      ? u.href
      : null;
  } catch {
    return null;
  }
}

function link(href: string, children: Node): Node {
  const safe = safeHref(href);
  if (!safe) return children;
  return h('a', { href: safe, target: '_blank', rel: 'noopener noreferrer nofollow' }, children);
}

const DEST = String.raw`\(\s*<?((?:[^()\s<>]|\([^()\s]*\))*)>?(?:\s+"[^"]*")?\s*\)`;
const LABEL = String.raw`\[((?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]`;
const INLINE = new RegExp(
  [
    String.raw`(\x60+)([^\x60]|[\s\S]*?[^\x60])\1(?!\x60)`, // 1,2 code span
    `!${LABEL}${DEST}`, // 3,4 image
    `${LABEL}${DEST}`, // 5,6 link
    String.raw`<((?:https?:|mailto:)[^>\s]+)>`, // 7 autolink
    String.raw`(\*\*|__)(?=\S)([\s\S]*?\S)\8`, // 8,9 strong
    String.raw`(\*|_)(?=[^\s*_])([\s\S]*?[^\s\\])\10(?![\w*])`, // 10,11 emphasis
    String.raw`~~(?=\S)([\s\S]*?\S)~~`, // 12 strikethrough
    String.raw`\\([!-/:-@[-\x60{-~])`, // 13 escaped punctuation
    String.raw`(?: {2,}|\\)\n`, // hard line break
  ].join('|'),
  'g',
);

export function inline(text: string): Node[] {
  const out: Node[] = [];
  let last = 0;
  INLINE.lastIndex = 0;
  for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) out.push(h('code', null, (m[2] ?? '').replace(/^ (.*) $/, '$1')));
    else if (m[4] !== undefined)
      out.push(link(m[4], h('span', { class: 'md-img' }, `[image${m[3] ? `: ${m[3]}` : ''}]`)));
    else if (m[6] !== undefined) out.push(link(m[6], inline(m[5] ?? '')));
    else if (m[7] !== undefined) out.push(link(m[7], m[7]));
    else if (m[9] !== undefined) out.push(h('strong', null, inline(m[9])));
    else if (m[11] !== undefined) out.push(h('em', null, inline(m[11])));
    else if (m[12] !== undefined) out.push(h('del', null, inline(m[12])));
    else if (m[13] !== undefined) out.push(m[13]);
    else out.push(h('br', null));
    // Inner calls reuse the shared regex: put its position back after them.
    INLINE.lastIndex = last;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
