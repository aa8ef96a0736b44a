/**
 * A collection set out in several product grids (product-grid.ts), one per sub-category or
 * shelf ("new", "accessories", "ways to save"), none of them the page's content alone: the
 * content is the block that holds them all, with the headings and intros between them.
 * The block is copied untrimmed, as a single grid is, after its category's heading and
 * intro when the page writes them apart from it (wider-content.ts): the article trims read
 * a shelf's carousel and a card's short lines as teaser boxes and link lists.
 */
import type { ElementNode } from './dom.js';
import { textLength } from './measure.js';

/**
 * The grids hold at least this share of the block's text: a collection's block is mostly
 * its cards; an article with a shop's boxes in its text (a buying guide) is its prose.
 */
const GRIDS_SHARE = 0.2;

/**
 * The smallest block holding all `grids` that are still in `body` (chrome removal may have
 * taken some), when there are two or more, they hold GRIDS_SHARE of its text, and it holds
 * more text than `content`; null otherwise. The block itself, not a copy: the caller copies
 * it with the category's intro (wider-content.ts).
 */
export function gridsTogether(
  content: ElementNode,
  grids: readonly ElementNode[],
  body: ElementNode,
): ElementNode | null {
  if (grids.length < 2) return null;
  const kept = grids.filter((grid) => ancestors(grid).includes(body));
  if (kept.length < 2) return null;
  const holder = commonAncestor(kept);
  if (!holder) return null;
  let gridText = 0;
  for (const grid of kept) gridText += textLength(grid);
  const holderText = textLength(holder);
  if (gridText < GRIDS_SHARE * holderText || holderText <= textLength(content)) return null;
  return holder;
}

/** Ancestors climbed from an element at most (hostile nesting). */
const MAX_DEPTH = 1000;

/** `el` and its ancestors, nearest first, MAX_DEPTH at most. */
function ancestors(el: ElementNode): ElementNode[] {
  const chain: ElementNode[] = [];
  for (let p: ElementNode | null = el; p && chain.length < MAX_DEPTH; p = p.parent) chain.push(p);
  return chain;
}

/** The deepest element holding all of `els`, or null when they share none in reach. */
function commonAncestor(els: readonly ElementNode[]): ElementNode | null {
  let chain = ancestors(els[0] as ElementNode);
  for (const el of els.slice(1)) {
    const theirs = new Set(ancestors(el));
    // the first (nearest) of ours that is one of theirs; the chain above it is shared
    const at = chain.findIndex((p) => theirs.has(p));
    if (at < 0) return null;
    chain = chain.slice(at);
  }
  return chain[0] ?? null;
}
