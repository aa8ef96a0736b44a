/**
 * What a collection page hides with a utility class. Beside its grid a shop's category page
 * renders, hidden until a script opens them, a comparison drawer with a full copy of every
 * card's product (its description, features, each colour's images), quick-view dialogs,
 * filter menus' extra items and loading spinners: none of it is what the page shows, and a
 * copy of every product in the grid can outweigh the grid itself. Chrome removal keeps
 * class-hidden blocks (articles hide a "read more" text that way, service pages their
 * menus' answers), so on a page read as a collection (a product grid, not a product page)
 * they go here: a block whose class hides it (`hidden`, `hide`, `d-none`, `is-hidden`)
 * unless the class list shows it again at some width, an accordion opened it (openPanels),
 * it is a tab panel (tab-panels.ts opens those) or it holds the grid. A hidden block with a
 * paragraph of prose is a "read more" text (a category's buying guide) and stays, unless it
 * holds another of the page's grids: then the prose is the copied products' descriptions.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { textLength } from './measure.js';
import { hiddenByClass } from './product-blocks.js';

/** A paragraph this long (characters) is prose a "read more" toggle hides (an SEO text). */
const PROSE = 150;

/**
 * Removes, in place, the class-hidden blocks of `body` that are not `grid`'s wrappers and
 * hold one of the page's other `grids` (a copy of the products) or no paragraph of prose.
 */
export function dropClassHidden(
  body: ElementNode,
  grid: ElementNode,
  grids: readonly ElementNode[],
  opened: ReadonlySet<ElementNode>,
): void {
  const wrappers = new Set<ElementNode>();
  for (let p: ElementNode | null = grid; p && p !== body; p = p.parent) wrappers.add(p);
  const holders = new Set<ElementNode>();
  for (const other of grids) {
    for (let p: ElementNode | null = other; p && p !== body && !holders.has(p); p = p.parent) {
      holders.add(p);
    }
  }
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (
        isClassHidden(child) &&
        !opened.has(child) &&
        !wrappers.has(child) &&
        (holders.has(child) || !holdsProse(child))
      ) {
        doomed.push(child);
      } else walk(child);
    }
  };
  walk(body);
  removeNodes(doomed);
}

function isClassHidden(el: ElementNode): boolean {
  return el.attrs.role !== 'tabpanel' && hiddenByClass(el.attrs.class);
}

function holdsProse(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'p' ? textLength(child) >= PROSE : holdsProse(child)) return true;
  }
  return false;
}
