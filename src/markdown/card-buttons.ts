/**
 * A product card's buttons. Cards carry controls styled as buttons beside the item's facts
 * ("add to cart", "quick view", "compare", "choose options"): links and boxes a theme
 * names by its button class (`btn`, `button`, `add_to_cart_button`), which chrome removal
 * does not take as it takes `<button>` elements. They say what the shop does, not what
 * the item is, and recur on every card. Inside each card of a collection's grids
 * (product-grid.ts), an element whose class names it a button and that holds a short text
 * and no heading goes. Class shapes only, never the page's words, so any language is
 * served.
 */
import { type ElementNode, findFirst, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

/** Elements visited under one grid at most (hostile sizes). */
const MAX_VISITED = 20_000;
/** A button's label is a few words; a longer text is a part of the card styled so. */
const LABEL_TEXT = 40;
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button)(?:$|[\s_-])/i;
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** Drops, in place, the button-styled short controls inside each card of `grids`. */
export function dropCardButtons(grids: readonly ElementNode[]): void {
  const doomed: ElementNode[] = [];
  for (const grid of new Set(grids)) {
    let visited = 0;
    const walk = (el: ElementNode, depth: number): void => {
      for (const child of el.children) {
        if (child.type !== 'element' || ++visited > MAX_VISITED) continue;
        if (depth > 0 && isCardButton(child)) doomed.push(child);
        else walk(child, depth + 1);
      }
    };
    walk(grid, 0);
  }
  removeNodes(doomed);
}

function isCardButton(el: ElementNode): boolean {
  if (!BUTTON_CLASS.test(el.attrs.class ?? '')) return false;
  if (textLengthUpTo(el, LABEL_TEXT + 1) > LABEL_TEXT) return false;
  return !HEADINGS.some((tag) => findFirst(el, tag));
}
