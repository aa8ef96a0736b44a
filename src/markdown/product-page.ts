/**
 * Product pages: the product's name, price, description and specifications are the content.
 * The blocks a shop template sets around them (customer reviews, "you may also like" and
 * "similar items" rows, ratings widgets, seller feedback) are long, prose-like and sit in
 * the same container as the description, so the Readability-style scorer keeps them with it.
 * References of product pages (WCXB) leave them out.
 *
 * A page is a product page when it says so in its markup: schema.org Product (JSON-LD or
 * microdata), `og:type` product, or one buy form (a collection page has one a card). Only
 * there are those blocks dropped, by the names shop templates give them in their class,
 * id or data-name (as Readability's own candidates are named) or by schema.org's Review
 * markup; and the rows of other products that shops set under the product (product-grid.ts's
 * cards) go by their shape. A page's words are never read, so any language is served.
 */
import { type ElementNode, findFirst, hasItemType, removeNodes } from './dom.js';
import { innerText, textLength } from './measure.js';
import { saysArticle } from './page-region.js';
import { findProductGrid } from './product-grid.js';

/** schema.org Product or ProductGroup as a JSON-LD `@type`, alone or in a list. */
const PRODUCT_TYPE = /"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?:\/\/schema\.org\/)?Product(?:Group)?"/;
export const PRODUCT_ITEMTYPE = /schema\.org\/Product(?:Group)?$/i;
/**
 * Class, id or `data-name` names of the blocks around a product that are not its content
 * (a component template names its sections in `data-name`, its classes being hashed).
 */
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
  return hasItemType(root, PRODUCT_ITEMTYPE) || (buyForms(root) === 1 && !saysArticle(root));
}

/**
 * Whether the page says it is a product by its `og:type` alone: no schema.org Product data
 * and not one buy form. Shop platforms set that meta on every page of a catalogue, its
 * collections too, so the claim is the weakest (collection-page.ts weighs it against grids).
 */
export function saysProductByMetaOnly(root: ElementNode, jsonLd: readonly string[]): boolean {
  if (jsonLd.some((data) => PRODUCT_TYPE.test(data))) return false;
  return !hasItemType(root, PRODUCT_ITEMTYPE) && buyForms(root) !== 1;
}

/**
 * A shop's buy box: the form that puts the product in the cart, named so in its id, class,
 * name or action by the shop templates' conventions (`addToCart`, `product-form`, `buy-box`,
 * an action posting to a cart, basket or bag path's add: Shopify's `/cart/add`, a
 * `/basket/add_and_show`). A page with one is a product's page (other products' quick-add
 * forms in a row of cards beside it not counted); a collection page has one a card; an
 * article (og:type article) with a shop's buy button beside its text is still an article.
 * Markup names, not page words: any language is served.
 */
const BUY_FORM = /add-?to-?(?:cart|bag|basket)|buy-?box|product-form|\/(?:cart|basket|bag)\/add/i;

/**
 * Cards of a row each holding a buy form: at least this many side by side make a row of
 * other products' quick-add forms ("complete the look"), not the product's own buy box.
 */
const QUICK_ADD_ROW = 3;

/**
 * The page's own buy forms: each buy form outside a row of cards each holding one (a
 * collection's grid or a row of other products under the product). One walk of the page.
 */
function buyForms(el: ElementNode): number {
  let count = 0;
  let holding = 0;
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    const a = child.attrs;
    const own =
      child.tag === 'form' &&
      BUY_FORM.test(`${a.id ?? ''} ${a.class ?? ''} ${a.name ?? ''} ${a.action ?? ''}`)
        ? 1
        : buyForms(child);
    count += own;
    if (own > 0) holding++;
  }
  return holding >= QUICK_ADD_ROW && holding === count ? 0 : count;
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
  dropOtherProducts(body, limit);
}

/** Grids of other products looked for at most (each search walks the page once). */
const MAX_GRIDS = 8;

/**
 * Removes, in place, the grids of other products ("you may also like", "customers also
 * viewed", a brand's other items): rows of cards, each a link with a name and a price
 * (product-grid.ts), that hold under `limit` characters and not the page's headline.
 */
function dropOtherProducts(body: ElementNode, limit: number): void {
  for (let i = 0; i < MAX_GRIDS; i++) {
    const grid = findProductGrid(body)?.el;
    if (!grid || textLength(grid) >= limit || findFirst(grid, 'h1')) break;
    removeNodes([withHeading(grid, body)]);
  }
}

/** Text (characters) a block's heading holds beside it: a title and a line under it. */
const HEADING_TEXT = 120;

/** The block with the wrappers around it that add only its heading, up to below `body`. */
function withHeading(block: ElementNode, body: ElementNode): ElementNode {
  const length = textLength(block);
  let top = block;
  for (let p = block.parent; p && p !== body; p = p.parent) {
    if (textLength(p) > length + HEADING_TEXT || findFirst(p, 'h1')) break;
    top = p;
  }
  return top;
}

function besideProduct(el: ElementNode): boolean {
  const a = el.attrs;
  if (a.itemprop === 'review' || (a.itemtype && REVIEW_ITEMTYPE.test(a.itemtype))) return true;
  return (
    (a.class !== undefined && BESIDE_PRODUCT.test(a.class)) ||
    (a.id !== undefined && BESIDE_PRODUCT.test(a.id)) ||
    (a['data-name'] !== undefined && BESIDE_PRODUCT.test(a['data-name']))
  );
}

/** The blocks above the product's name may hold at most this share of the content's text. */
const ABOVE_NAME = 0.5;

/**
 * Removes, in place, the blocks of `content` (copies of `body`'s, sharing their attributes)
 * that come before the product's name in the page: the `<h1>` saying `headline` (or the
 * start of it: chrome removal has taken a label, a SKU in a `<label>`, out of it). A shop
 * sets its breadcrumbs, promotion banners and delivery notices there; the product's
 * gallery, buy box and description come after its name. Nothing is removed when the page
 * has no such `<h1>`, or when the blocks before it hold over ABOVE_NAME of the content
 * (a template that sets the description first).
 */
export function dropAboveProductName(
  content: ElementNode,
  body: ElementNode,
  headline: string,
): void {
  // each element's span in document order, by its attributes (copies share them)
  const spans = new Map<Readonly<Record<string, string>>, [number, number]>();
  const key = squash(headline);
  let count = 0;
  let name = -1;
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const start = count++;
      if (name < 0 && child.tag === 'h1' && namesProduct(child, key)) name = start;
      walk(child);
      spans.set(child.attrs, [start, count]);
    }
  };
  walk(body);
  if (name < 0) return;
  const above: ElementNode[] = [];
  const cut = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const span = spans.get(child.attrs);
      if (span && span[1] <= name) above.push(child);
      else if (!span || span[0] < name) cut(child);
    }
  };
  cut(content);
  let aboveText = 0;
  for (const el of above) aboveText += textLength(el);
  if (aboveText <= ABOVE_NAME * textLength(content)) removeNodes(above);
}

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function namesProduct(h1: ElementNode, key: string): boolean {
  const text = squash(innerText(h1));
  return text.length > 0 && key.startsWith(text);
}
