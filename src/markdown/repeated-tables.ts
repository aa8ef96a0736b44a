/**
 * Spec tables a product page prints twice. Shop themes fill a "Description" tab and a
 * "Specifications" tab from two sources (the description's HTML and the product's fields),
 * and both hold the same table with a label or two reworded; repeated-blocks.ts, which
 * compares whole texts, keeps both. A later table or definition list whose cells (its
 * `td`/`th`, or its `dt`/`dd`) are mostly cells of the earlier ones adds nothing and is
 * dropped. Cells are compared without their whitespace, in any language; distinct cells are
 * counted, so a table of "Yes" and "No" repeats only those two.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText } from './measure.js';

const SPACE = /\s+/g;
const GRIDS: ReadonlySet<string> = new Set(['table', 'dl']);
const CELLS: ReadonlySet<string> = new Set(['td', 'th', 'dt', 'dd']);
/** Share of a later grid's distinct cells found in earlier grids that makes it a copy. */
const COPY_SHARE = 0.8;
/** A grid with fewer distinct cells is too small to tell a copy from a coincidence. */
const MIN_CELLS = 6;

/** Removes, in place, every table or definition list of `content` that repeats earlier ones. */
export function dropRepeatedTables(content: ElementNode): void {
  const grids: ElementNode[] = [];
  outerGrids(content, grids);
  if (grids.length < 2) return;
  const seen = new Set<string>();
  const doomed: ElementNode[] = [];
  for (const grid of grids) {
    const cells = new Set<string>();
    cellTexts(grid, cells);
    let repeated = 0;
    for (const cell of cells) if (seen.has(cell)) repeated++;
    if (cells.size >= MIN_CELLS && repeated >= cells.size * COPY_SHARE) {
      doomed.push(grid);
      continue;
    }
    for (const cell of cells) seen.add(cell);
  }
  removeNodes(doomed);
}

/** Tables and lists not inside another one (an inner table's cells are its outer table's). */
function outerGrids(el: ElementNode, out: ElementNode[]): void {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (GRIDS.has(child.tag)) out.push(child);
    else outerGrids(child, out);
  }
}

function cellTexts(el: ElementNode, out: Set<string>): void {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (CELLS.has(child.tag)) {
      const text = innerText(child).replace(SPACE, '');
      if (text) out.add(text);
    } else cellTexts(child, out);
  }
}
