/**
 * A PDF's lines (pdf-lines.ts), page by page, as Markdown: running headers and footers left
 * out, headings from font size (and weight), paragraphs joined across line breaks and pages,
 * hyphenation joined, lists, and tables where three or more rows keep the same columns. Pure.
 */
import type { PdfLine } from './pdf-lines.js';

export interface PdfPageLines {
  lines: PdfLine[];
  /** The page's height, to tell its top and bottom margins. */
  height: number;
}

const BULLET = /^([•◦▪▫●○■□‣⁃∙·–\-*])\s+/u;
const ORDERED = /^(\d{1,3}|[a-z])[.)]\s+/;

export function linesToMarkdown(pages: PdfPageLines[]): string {
  const kept = pages.map((page, i) => withoutRunning(page, pages, i));
  const body = bodySize(kept.flat());
  const headingSizes = [...new Set(kept.flat().map((l) => l.size))]
    .filter((s) => s >= body * 1.15)
    .sort((a, b) => b - a)
    .slice(0, 4);
  const out: string[] = [];
  let paragraph = '';
  let previous: PdfLine | null = null;
  const flush = () => {
    if (paragraph) out.push(paragraph);
    paragraph = '';
  };
  for (const lines of kept) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as PdfLine;
      const table = tableAt(lines, i);
      if (table) {
        flush();
        out.push(table.markdown);
        i = table.end - 1;
        previous = null;
        continue;
      }
      const level = headingLevel(line, body, headingSizes);
      if (level) {
        flush();
        const last = out.at(-1);
        // a heading set on two lines: one heading
        if (previous && last?.startsWith('#') && previous.size === line.size) {
          out[out.length - 1] = `${last} ${line.text}`;
        } else out.push(`${'#'.repeat(level)} ${line.text}`);
        previous = line;
        continue;
      }
      const bullet = BULLET.exec(line.text);
      const ordered = ORDERED.exec(line.text);
      if (bullet || (ordered && startsItem(previous, line))) {
        flush();
        paragraph = bullet
          ? `- ${line.text.slice(bullet[0].length)}`
          : `${ordered?.[1]}. ${line.text.slice(ordered?.[0].length)}`;
      } else if (paragraph && previous && !breaksParagraph(previous, line, body)) {
        paragraph = joinLines(paragraph, line.text);
      } else {
        flush();
        paragraph = line.text;
      }
      previous = line;
    }
  }
  flush();
  // a list's items one per line, so it reads as one list
  const item = /^(- |\d{1,3}\. |[a-z]\. )/;
  let markdown = out[0] ?? '';
  for (let i = 1; i < out.length; i++) {
    const block = out[i] as string;
    markdown += item.test(block) && item.test(out[i - 1] as string) ? `\n${block}` : `\n\n${block}`;
  }
  return `${markdown}\n`;
}

/** The size most of the text is set in. */
function bodySize(lines: PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(l.size, (chars.get(l.size) ?? 0) + l.text.length);
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

function headingLevel(line: PdfLine, body: number, sizes: number[]): number {
  if (line.text.length > 120 || !/\p{L}/u.test(line.text)) return 0;
  const rank = sizes.indexOf(line.size);
  if (rank >= 0) return rank + 1;
  // a bold line of body size on its own: the lowest heading
  if (line.bold && line.size >= body && line.text.length < 80 && !/[.,;:]$/.test(line.text)) {
    return Math.min(sizes.length + 1, 6);
  }
  return 0;
}

/** A new paragraph: a gap wider than a line and a half, a change of size, or an indent. */
function breaksParagraph(previous: PdfLine, line: PdfLine, body: number): boolean {
  if (line.size !== previous.size) return true;
  const gap = previous.y - line.y;
  if (gap < 0) return false; // the next column or page: the paragraph goes on
  if (gap > Math.max(line.size, body) * 1.75) return true;
  return line.x - previous.x > line.size * 1.5;
}

/** "1." starts a list item only where a paragraph could not go on with it. */
function startsItem(previous: PdfLine | null, line: PdfLine): boolean {
  return previous === null || /[.:;!?]$/.test(previous.text) || line.x <= previous.x;
}

/** Joins a line to its paragraph; a word hyphenated across the break is one word again. */
export function joinLines(paragraph: string, next: string): string {
  if (/\p{Ll}-$/u.test(paragraph) && /^\p{Ll}/u.test(next)) return paragraph.slice(0, -1) + next;
  return `${paragraph} ${next}`;
}

/**
 * Lines in the top or bottom eighth of a page that recur (digits aside: page numbers) on
 * at least half the pages (and two or more) are its running headers and footers; a lone
 * page number is one too.
 */
function withoutRunning(page: PdfPageLines, pages: PdfPageLines[], index: number): PdfLine[] {
  const margin = page.height / 8;
  const key = (l: PdfLine) => l.text.replace(/\d+/g, '#').toLowerCase();
  const inMargin = (l: PdfLine, p: PdfPageLines) => l.y > p.height - margin || l.y < margin;
  return page.lines.filter((line) => {
    if (!inMargin(line, page)) return true;
    if (/^[-–\s]*\d{1,4}[-–\s]*$|^page \d+( of \d+)?$/i.test(line.text)) return false;
    if (pages.length < 2) return true;
    const k = key(line);
    let seen = 0;
    for (const [i, other] of pages.entries()) {
      if (i !== index && other.lines.some((l) => inMargin(l, other) && key(l) === k)) seen++;
    }
    return seen + 1 < Math.max(2, pages.length / 2);
  });
}

/** Three or more consecutive lines with the same number (2 to 8) of wide-gap cells. */
function tableAt(lines: PdfLine[], start: number): { markdown: string; end: number } | null {
  const columns = lines[start]?.cells.length ?? 0;
  if (columns < 2 || columns > 8) return null;
  let end = start;
  while (end < lines.length && lines[end]?.cells.length === columns) end++;
  if (end - start < 3) return null;
  const cell = (c: string) => c.replace(/\|/g, '\\|');
  const rows = lines.slice(start, end).map((l) => `| ${l.cells.map(cell).join(' | ')} |`);
  const rule = `|${' --- |'.repeat(columns)}`;
  return { markdown: [rows[0], rule, ...rows.slice(1)].join('\n'), end };
}
