/**
 * `<table>` → GitHub-flavoured table. The first row is the header row (GFM requires one);
 * colspans repeat empty cells so columns stay aligned; pipes in cells are escaped.
 * Tables used for page layout (a single column, or nested tables) are rendered as plain
 * blocks instead, because a one-cell "table" of paragraphs is not tabular data.
 */
import type { ElementNode } from './dom.js';
import { finish, inlineCode } from './fragment.js';

/** What a table needs of the writer (serialize.ts's MarkdownWriter) to render its cells. */
export interface CellWriter {
  /** Renders an element's children; `pre` is true inside <pre>. */
  children(el: ElementNode, pre: boolean): string;
  /** Stores finished text that later clean-up must not touch; returns its placeholder. */
  protect(text: string): string;
  /** Replaces placeholders with what they stand for. */
  expand(text: string): string;
}

export function renderTable(table: ElementNode, writer: CellWriter): string {
  const rows = collectRows(table);
  const width = Math.max(0, ...rows.map((r) => r.reduce((n, c) => n + span(c), 0)));
  if (rows.length === 0 || width === 0) return '';
  if (width === 1 || hasNestedTable(table)) {
    return `\n\n${writer.children(table, false)}\n\n`;
  }
  const lines: string[] = [];
  const caption = table.children.find(
    (c): c is ElementNode => c.type === 'element' && c.tag === 'caption',
  );
  rows.forEach((row, i) => {
    const cells: string[] = [];
    for (const cell of row) {
      cells.push(cellText(cell, writer));
      for (let k = 1; k < span(cell); k++) cells.push('');
    }
    while (cells.length < width) cells.push('');
    lines.push(`| ${cells.join(' | ')} |`);
    if (i === 0) lines.push(`|${' --- |'.repeat(width)}`);
  });
  const title = caption ? `${finish(writer.children(caption, false))}\n\n` : '';
  return `\n\n${title}${writer.protect(lines.join('\n'))}\n\n`;
}

function span(cell: ElementNode): number {
  const n = Number(cell.attrs.colspan);
  return Number.isInteger(n) && n > 1 && n < 100 ? n : 1;
}

function cellText(cell: ElementNode, writer: CellWriter): string {
  // a cell is one line: block breaks become spaces; pipes are already escaped as text
  // a code block in a cell is flattened too: a table row cannot span lines
  return finish(writer.expand(writer.children(cell, false)))
    .replace(/(`{3,})[^\n]*\n([\s\S]*?)\n\1/g, (_m, _fence, code: string) => inlineCode(code))
    .replace(/\n+/g, ' ')
    .replace(/\uE001/g, '')
    .replace(/\uE000/g, ' ');
}

/** Rows of the table itself (thead, tbody, tfoot or direct), not of nested tables. */
function collectRows(table: ElementNode): ElementNode[][] {
  const rows: ElementNode[][] = [];
  const visit = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'tr') {
        const cells = child.children.filter(
          (c): c is ElementNode => c.type === 'element' && (c.tag === 'td' || c.tag === 'th'),
        );
        if (cells.length) rows.push(cells);
      } else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') {
        visit(child);
      }
    }
  };
  visit(table);
  return rows;
}

function hasNestedTable(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'table' || hasNestedTable(child)) return true;
  }
  return false;
}
