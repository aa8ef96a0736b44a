/**
 * A publisher's legal notice on a product page: the copyright line (`©` and its year)
 * and the licence terms set with it in one block ("All trademarks are the property of
 * their respective owners", a game's EULA). The notice is the rights holder's, the same on
 * every item it sells, and WCXB's references of product pages leave it out, as they leave
 * out a site's footer. Told by the copyright sign and the block's shape (paragraphs of
 * text only), not by words, so any language is served.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

/**
 * The copyright sign (or "(c)") with its year: a notice's form. A sign alone is a brand's
 * mark inside a description ("Lego ©"), which stays.
 */
export const COPYRIGHT = /(?:©|\(c\))\s*(?:19|20)\d\d/i;
/** A notice's block holds at most this much text (characters): fine print, not a page. */
const NOTICE_TEXT = 2500;
/** Elements a notice's block may hold besides text: paragraphs, line breaks, emphasis. */
const NOTICE_TAGS = new Set(['p', 'br', 'span', 'small', 'b', 'strong', 'i', 'em', 'a', 'sup']);
/** Elements visited at most: the walk is bounded on hostile pages. */
const MAX_ELEMENTS = 50_000;

/** Removes, in place, the blocks of fine print under `root` that carry a copyright sign. */
export function dropLegalNotices(root: ElementNode): void {
  const doomed = new Set<ElementNode>();
  // each element is judged once: many notices under one wrapper climb to the same blocks
  const fits = new Map<ElementNode, boolean>();
  const fitting = (el: ElementNode): boolean => {
    let known = fits.get(el);
    if (known === undefined) {
      known = onlyText(el) && textLengthUpTo(el, NOTICE_TEXT + 1) <= NOTICE_TEXT;
      fits.set(el, known);
    }
    return known;
  };
  let budget = MAX_ELEMENTS;
  const stack: ElementNode[] = [root];
  while (stack.length > 0 && budget-- > 0) {
    const el = stack.pop() as ElementNode;
    for (const child of el.children) {
      if (child.type === 'element') stack.push(child);
      else if (COPYRIGHT.test(child.text)) {
        const block = noticeBlock(el, root, fitting);
        if (block) doomed.add(block);
      }
    }
  }
  removeNodes([...doomed]);
}

/**
 * The block of fine print around the copyright's element: the highest ancestor, below
 * `root`, that holds only text-level elements and paragraphs, at most NOTICE_TEXT
 * characters; null when the copyright's element is itself more than that.
 */
function noticeBlock(
  el: ElementNode,
  root: ElementNode,
  fitting: (el: ElementNode) => boolean,
): ElementNode | null {
  if (el === root || !fitting(el)) return null;
  let block = el;
  for (let p = el.parent; p && p !== root; p = p.parent) {
    if (!fitting(p)) break;
    block = p;
  }
  return block;
}

/** Whether `el` holds text, paragraphs and text-level elements only (a depth of two). */
function onlyText(el: ElementNode, depth = 0): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (depth >= 2 || !NOTICE_TAGS.has(child.tag)) return false;
    if (!onlyText(child, depth + 1)) return false;
  }
  return true;
}
