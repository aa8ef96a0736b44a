/**
 * Price lists on a product page: the block named as the price that holds a list or a table
 * (a currency switcher's converted prices, a bulk discount's quantity breaks). They are the
 * shop's pricing machinery, the same on every product of the shop; WCXB's references of
 * product pages leave them out (most hold no price at all). The price alone stays: the
 * references disagree on it page to page (dropping every price box lost as many pages as it
 * won), while a list of prices they never keep. Told by markup names (`price`,
 * `product-price`, `price__list`) and schema.org's `itemprop`, never by the page's words.
 */
import { type ElementNode, findFirst, outermost, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

/** A class or id token naming a price's box: `price`, `product-price`, `price_info_list`. */
const PRICE_NAME = /^(?:[a-z0-9]+[-_]+)*price(?:s|[-_]+[a-z0-9]+)*$/i;
const PRICE_ITEMPROP = /^(?:price|offers|lowPrice|highPrice)$/;
/** A price box holds prices and a line or two about them; a longer block named so is not one. */
const MAX_PRICE_BOX = 400;
const LISTS = new Set(['ul', 'ol', 'table', 'dl']);

/** Removes, in place, the price boxes under `root` that hold a list of prices. */
export function dropPriceLists(root: ElementNode): void {
  removeNodes(outermost(root, isPriceList));
}

function isPriceList(el: ElementNode): boolean {
  return (
    namedPrice(el) &&
    textLengthUpTo(el, MAX_PRICE_BOX + 1) <= MAX_PRICE_BOX &&
    holdsList(el) &&
    !findFirst(el, 'h1')
  );
}

function namedPrice(el: ElementNode): boolean {
  const a = el.attrs;
  if (a.itemprop !== undefined && PRICE_ITEMPROP.test(a.itemprop)) return true;
  for (const token of `${a.class ?? ''} ${a.id ?? ''}`.split(/\s+/))
    if (token && PRICE_NAME.test(token)) return true;
  return false;
}

function holdsList(el: ElementNode): boolean {
  if (LISTS.has(el.tag)) return true;
  for (const child of el.children) if (child.type === 'element' && holdsList(child)) return true;
  return false;
}
