/**
 * A product card's second copies of its own lines. Shop themes write a card's title, price
 * and badges once per state and let the stylesheet show one: the title over the picture and
 * again under it (a "no media" layout), the price as the regular and as the sale figure
 * (the sale one with a struck-through copy), the "sold out" badge on the picture and in the
 * text. A reader sees each once; the copies double a card's text. Inside each card of a
 * collection's grids (product-grid.ts), an element that holds only text (a title, a price,
 * a badge) saying what an earlier one of the same card said goes, with the wrappers that
 * hold nothing else (a heading around a title's link). What a card hides is not read: it
 * may be the twin that is kept hidden (card-hidden-text.ts), and chrome removal takes it.
 * Text only, never the page's words, so any language is served.
 */
import { isHidden } from './boilerplate.js';
import { type ElementNode, removeNodes, type TextNode } from './dom.js';
import { collapsedText } from './measure.js';

/** Elements visited under one card at most (hostile sizes). */
const MAX_VISITED = 2_000;
/**
 * A copy says two letters or digits at least: separators and icons' glyphs repeat, and so
 * do the single letters a marketplace spells its "sponsored" label in, one element each.
 */
const SAYS = /[\p{L}\p{N}]/u;
const SAYS_TWO = /[\p{L}\p{N}].*[\p{L}\p{N}]/su;

/** Drops, in place, the repeated text-only elements inside each card of `grids`. */
export function dropCardCopies(grids: readonly ElementNode[]): void {
  const doomed: ElementNode[] = [];
  for (const grid of new Set(grids)) {
    for (const card of grid.children) {
      if (card.type === 'element') doomed.push(...copiesIn(card));
    }
  }
  removeNodes(doomed);
}

function copiesIn(card: ElementNode): ElementNode[] {
  const said = new Set<string>();
  const copies: ElementNode[] = [];
  let visited = 0;
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element' || ++visited > MAX_VISITED || isHidden(child)) continue;
      const text = ownText(child);
      if (text === null) {
        walk(child);
        continue;
      }
      if (!SAYS_TWO.test(text)) continue;
      if (!said.has(text)) said.add(text);
      else {
        const copy = outermost(child, card);
        // a part of a line (a price's amount set apart from its sign) is not a line's copy
        if (!inLine(copy)) copies.push(copy);
      }
    }
  };
  walk(card);
  return copies;
}

/** The element's text when it holds text nodes and no element with text; null otherwise. */
function ownText(el: ElementNode): string | null {
  let text = '';
  for (const child of el.children) {
    if (child.type === 'element') {
      if (child.children.length > 0) return null;
      continue;
    }
    if (child.type === 'text') text += ` ${collapsedText(child as TextNode)}`;
  }
  const trimmed = text.trim();
  return trimmed.length > 0 ? trimmed : null;
}

/** `el` with the wrappers below `card` that hold nothing else. */
function outermost(el: ElementNode, card: ElementNode): ElementNode {
  let top = el;
  for (let p = el.parent; p && p !== card; p = p.parent) {
    if (
      p.children.some(
        (c) => c !== top && (c.type === 'element' || (c.type === 'text' && c.text.trim())),
      )
    )
      break;
    top = p;
  }
  return top;
}

/** Whether the element's parent holds text of its own beside it. */
function inLine(el: ElementNode): boolean {
  const parent = el.parent;
  if (!parent) return false;
  return parent.children.some((c) => c.type === 'text' && SAYS.test(c.text));
}
