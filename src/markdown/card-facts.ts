/**
 * The parts of a product grid's cards (product-grid.ts) that the trims took inside wider
 * content. When the content holds the grid with more around it (the category's tiles, its
 * sort bar, read as the page's region or the scorer's block), it was trimmed as an article,
 * and named boilerplate (discard.ts) took each card's parts named as an item's (its
 * `rating` box with the screen-reader caption "133 reviews with an average rating of 4.6
 * out of 5 stars", its `meta` line): a grid's parts recur on every card, so they hold no
 * share of the article, the test that spares a listing's parts (templateParts). Beside an
 * article they are a post's rating widget; in a card they are the item's facts.
 *
 * Only the parts of cards the content kept are put back, at their place: a card the trims
 * dropped whole, or its other lines (a caption repeating a picture's alt), stay dropped.
 * Copies are known by their attributes: a copy shares the original's attribute object
 * (clone.ts), so no text or class is compared.
 */
import { cloneElement } from './clone.js';
import type { ElementNode, Node } from './dom.js';

/**
 * The names of an item's facts among discard.ts's names of an item's parts: its rating, its
 * metadata, its author and date; not its buttons, whose labels ("Visit website", "Add to
 * cart") are actions, not facts of the item.
 */
const CARD_FACT = /meta|rating|author|byline|timestamp/i;

/** Elements visited in the content and the grids at most (hostile sizes). */
const MAX_VISITED = 100_000;

/**
 * Puts back, in place, the item facts (CARD_FACT, by class) that the trims took
 * from the kept cards of `grids` (elements of `body`, after chrome removal) in `content`.
 */
export function restoreCardParts(
  content: ElementNode,
  grids: readonly ElementNode[],
  body: ElementNode,
): void {
  const byAttrs = new Map<ElementNode['attrs'], ElementNode>();
  for (const grid of grids) if (within(grid, body)) byAttrs.set(grid.attrs, grid);
  if (byAttrs.size === 0) return;
  const budget = { visited: 0 };
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element' || ++budget.visited > MAX_VISITED) continue;
      const grid = byAttrs.get(child.attrs);
      if (grid && grid.tag === child.tag) restoreParts(child, grid, budget, 0);
      else walk(child);
    }
  };
  walk(content);
}

/**
 * Below the grid (depth 0) each kept element's missing children that are named as an
 * item's fact come back as copies, in the original's order among the kept ones. The grid
 * itself and its cards (depth 0 and 1) are never put back: a card dropped whole stays so.
 */
function restoreParts(
  copy: ElementNode,
  original: ElementNode,
  budget: { visited: number },
  depth: number,
): void {
  const kept = new Map<ElementNode['attrs'], ElementNode>();
  for (const child of copy.children) if (child.type === 'element') kept.set(child.attrs, child);
  const out: Node[] = [];
  let at = 0;
  let added = false;
  for (const child of original.children) {
    if (child.type !== 'element' || ++budget.visited > MAX_VISITED) continue;
    const twin = kept.get(child.attrs);
    if (twin && twin.tag === child.tag) {
      // the copy's children up to the twin, in their order (text nodes among them)
      const end = copy.children.indexOf(twin, at);
      if (end < 0) continue;
      out.push(...copy.children.slice(at, end + 1));
      at = end + 1;
      restoreParts(twin, child, budget, depth + 1);
    } else if (depth >= 1 && CARD_FACT.test(child.attrs.class ?? '')) {
      out.push(cloneElement(child, copy));
      added = true;
    }
  }
  if (!added) return;
  out.push(...copy.children.slice(at));
  copy.children = out;
}

/** Whether `el` is still in the tree of `root` (chrome removal detaches whole subtrees). */
function within(el: ElementNode, root: ElementNode): boolean {
  for (let p: ElementNode | null = el; p; p = p.parent) if (p === root) return true;
  return false;
}
