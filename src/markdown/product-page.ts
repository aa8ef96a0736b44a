/**
 * Product pages: the product's name, price, description and specifications are the content.
 * The blocks a shop template sets around them (customer reviews, "you may also like" and
 * "similar items" rows, ratings widgets, seller feedback) are long, prose-like and sit in
 * the same container as the description, so the Readability-style scorer keeps them with it.
 * References of product pages (WCXB) leave them out.
 *
 * A page is a product page when it says so in its markup: schema.org Product (JSON-LD or
 * microdata) or `og:type` product. Only there are those blocks dropped, by the names shop
 * templates give them in their class or id (as Readability's own candidates are named) or
 * by schema.org's Review markup; a page's words are never read, so any language is served.
 */
import { type ElementNode, findFirst, hasItemType, removeNodes } from './dom.js';
import { textLength } from './measure.js';

/** schema.org Product or ProductGroup as a JSON-LD `@type`, alone or in a list. */
const PRODUCT_TYPE = /"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?:\/\/schema\.org\/)?Product(?:Group)?"/;
const PRODUCT_ITEMTYPE = /schema\.org\/Product(?:Group)?$/i;
/** Class or id names of the blocks around a product that are not its content. */
const BESIDE_PRODUCT = /review|recommend|related|similar|upsell|rating|feedback/i;
const REVIEW_ITEMTYPE = /schema\.org\/(?:Review|AggregateRating)$/i;
/**
 * A named block holding this share of the page's text or more is not a block beside the
 * product: a template that names its whole page "product-with-reviews" keeps its text.
 */
const MOST_OF_PAGE = 0.5;

export function isProductPage(root: ElementNode, jsonLd: readonly string[]): boolean {
  if (jsonLd.some((data) => PRODUCT_TYPE.test(data))) return true;
  const head = findFirst(root, 'head');
  for (const el of head ? head.children : []) {
    if (el.type !== 'element' || el.tag !== 'meta') continue;
    if ((el.attrs.property ?? el.attrs.name) !== 'og:type') continue;
    if ((el.attrs.content ?? '').trim().toLowerCase().startsWith('product')) return true;
  }
  return hasItemType(root, PRODUCT_ITEMTYPE);
}

/**
 * Removes, in place, the blocks beside the product (reviews, recommendations, ratings).
 * `pageTextLength`: the body's text length, measured once by the caller.
 */
export function dropBesideProduct(body: ElementNode, pageTextLength: number): void {
  const limit = pageTextLength * MOST_OF_PAGE;
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (besideProduct(child) && textLength(child) < limit) doomed.push(child);
      else walk(child);
    }
  };
  walk(body);
  removeNodes(doomed);
}

function besideProduct(el: ElementNode): boolean {
  const a = el.attrs;
  if (a.itemprop === 'review' || (a.itemtype && REVIEW_ITEMTYPE.test(a.itemtype))) return true;
  return (
    (a.class !== undefined && BESIDE_PRODUCT.test(a.class)) ||
    (a.id !== undefined && BESIDE_PRODUCT.test(a.id))
  );
}
