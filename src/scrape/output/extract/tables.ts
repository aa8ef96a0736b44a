/**
 * `table_json` and `table_array`: a table's rows, its cells as text. The rows are the
 * table's own (through thead, tbody and tfoot), never those of a table nested in a cell. A
 * matched element that is not a table stands for the first table inside it; without one
 * the answer is [].
 *
 * table_json keys each row by the header: the cells of the first row that has `<th>` cells,
 * else of the first row. A cell without a header name is keyed by its column number (from
 * 1); a name met twice gets `_2`, `_3`... after it.
 */
import { DomUtils } from 'htmlparser2';
import type { JsonValue } from '../../types.js';
import { cleanText, elementText } from '../document/element-text.js';
import type { PageElement } from '../document/page-tree.js';

interface Spend {
  spend(chars: number): void;
}

const SECTIONS = new Set(['thead', 'tbody', 'tfoot']);

function tableOf(element: PageElement): PageElement | null {
  if (element.name === 'table') return element;
  return (DomUtils.findOne((el) => el.name === 'table', element.children) as PageElement) ?? null;
}

function childTags(element: PageElement): PageElement[] {
  return element.children.filter(DomUtils.isTag) as PageElement[];
}

function rowsOf(table: PageElement): PageElement[] {
  return childTags(table).flatMap((child) =>
    child.name === 'tr'
      ? [child]
      : SECTIONS.has(child.name)
        ? childTags(child).filter((r) => r.name === 'tr')
        : [],
  );
}

function cellsOf(row: PageElement): PageElement[] {
  return childTags(row).filter((cell) => cell.name === 'td' || cell.name === 'th');
}

function cellText(cell: PageElement, clean: boolean, budget: Spend): string {
  const raw = elementText(cell);
  const text = clean ? cleanText(raw) : raw;
  budget.spend(text.length);
  return text;
}

export function tableArray(element: PageElement, clean: boolean, budget: Spend): JsonValue {
  const table = tableOf(element);
  if (!table) return [];
  return rowsOf(table).map((row) => cellsOf(row).map((cell) => cellText(cell, clean, budget)));
}

export function tableJson(element: PageElement, clean: boolean, budget: Spend): JsonValue {
  const table = tableOf(element);
  if (!table) return [];
  const rows = rowsOf(table);
  const headerAt = Math.max(
    0,
    rows.findIndex((row) => cellsOf(row).some((cell) => cell.name === 'th')),
  );
  const header = rows[headerAt];
  if (!header) return [];
  const names = headerNames(cellsOf(header).map((cell) => cleanText(elementText(cell))));
  return rows
    .slice(headerAt + 1)
    .map((row) =>
      Object.fromEntries(
        cellsOf(row).map((cell, i) => [names[i] ?? String(i + 1), cellText(cell, clean, budget)]),
      ),
    );
}

function headerNames(texts: string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text, i) => {
    const name = text === '' ? String(i + 1) : text;
    const times = (seen.get(name) ?? 0) + 1;
    seen.set(name, times);
    return times === 1 ? name : `${name}_${times}`;
  });
}
