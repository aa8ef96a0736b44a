/**
 * Rows of link cards on a product page: teasers of other pages (the shop's news, guides,
 * events, items without a price) set as whole-card links, each an `<a>` around a picture
 * and a line or two of text. product-grid.ts takes the rows with prices and
 * product-page.ts the ones whose template names them; these are told by their shape alone,
 * so any language is served. A card's text is another page's summary, not the product's:
 * WCXB's references of product pages leave the rows out.
 */
import { type ElementNode, findFirst, removeNodes } from './dom.js';
import { textLength, textLengthUpTo } from './measure.js';

/** A card's link holds at least this much text (characters): a title, not a swatch's name. */
const CARD_TEXT = 30;
/** Cards in a row at least: one linked picture with a caption is a figure. */
const MIN_CARDS = 2;
/** The cards hold at least this share of their row's text (the rest: a heading, "view all"). */
const CARDS_SHARE = 0.8;
/** Text (characters) a row's heading holds beside it: a title and a line under it. */
const HEADING_TEXT = 120;
/** Rows looked at most: each one's heading is looked for up its ancestors. */
const MAX_ROWS = 32;
/** A row holding this share of the page's text or more is the page's content, not beside it. */
const MOST_OF_PAGE = 0.5;
/** Elements visited at most: the walk is bounded on hostile pages. */
const MAX_ELEMENTS = 50_000;

/**
 * Removes, in place, the rows of link cards under `body`, with their headings.
 * `pageTextLength`: the body's text length, measured once by the caller.
 */
export function dropLinkCards(body: ElementNode, pageTextLength: number): void {
  const limit = pageTextLength * MOST_OF_PAGE;
  const rows = new Map<ElementNode, ElementNode[]>();
  let budget = MAX_ELEMENTS;
  const stack: ElementNode[] = [body];
  while (stack.length > 0 && budget-- > 0) {
    const el = stack.pop() as ElementNode;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (isCard(child)) {
        const slot = slotOf(child, body);
        const row = slot.parent;
        if (!row || row === body) continue;
        const slots = rows.get(row);
        if (slots) slots.push(slot);
        else if (rows.size < MAX_ROWS) rows.set(row, [slot]);
      } else stack.push(child);
    }
  }
  const doomed: ElementNode[] = [];
  for (const [row, slots] of rows) {
    if (slots.length < MIN_CARDS || findFirst(row, 'h1')) continue;
    const rowText = textLength(row);
    if (rowText >= limit) continue;
    let cardsText = 0;
    for (const slot of slots) cardsText += textLength(slot);
    if (cardsText >= CARDS_SHARE * rowText) doomed.push(withHeading(row, body));
  }
  removeNodes(doomed);
}

/** A whole-card link: an `<a>` to another page around a picture and a title's text. */
function isCard(el: ElementNode): boolean {
  if (el.tag !== 'a') return false;
  const href = el.attrs.href ?? '';
  if (href === '' || href.startsWith('#') || href.startsWith('javascript:')) return false;
  return findFirst(el, 'img') !== null && textLengthUpTo(el, CARD_TEXT) >= CARD_TEXT;
}

/** The card with the wrappers around it that add no text (a list item, a column). */
function slotOf(card: ElementNode, body: ElementNode): ElementNode {
  const length = textLength(card);
  let slot = card;
  for (let p = card.parent; p && p !== body && p.parent !== body; p = p.parent) {
    // counted up to one past the card's: a list around many cards is not measured whole
    if (textLengthUpTo(p, length + 1) > length) break;
    slot = p;
  }
  return slot;
}

/** The row with the wrappers around it that add only its heading, up to below `body`. */
function withHeading(row: ElementNode, body: ElementNode): ElementNode {
  const length = textLength(row);
  let top = row;
  for (let p = row.parent; p && p !== body; p = p.parent) {
    const most = length + HEADING_TEXT;
    if (textLengthUpTo(p, most + 1) > most || findFirst(p, 'h1')) break;
    top = p;
  }
  return top;
}
