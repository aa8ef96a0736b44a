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
import { isHidden } from './boilerplate.js';
import { type ElementNode, findFirst, hasItemType, type Node, removeNodes } from './dom.js';
import { linkDensity, textLength } from './measure.js';
import { findProductGrid } from './product-grid.js';

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
  return hasItemType(root, PRODUCT_ITEMTYPE) || buyForms(root, 2) === 1;
}

/**
 * A shop's buy box: the form that puts the product in the cart, named so in its id, class
 * or action by the shop templates' conventions (`addToCart`, `product-form`, Shopify's
 * `/cart/add`, `buy-box`). A page with one is a product's page; a collection page has one a
 * card. Markup names, not page words: any language is served.
 */
const BUY_FORM = /add-?to-?(?:cart|bag|basket)|buy-?box|product-form|\/cart\/add/i;

/** The page's buy forms, counted up to `cap`. */
function buyForms(el: ElementNode, cap: number): number {
  let count = 0;
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    const a = child.attrs;
    if (child.tag === 'form' && BUY_FORM.test(`${a.id ?? ''} ${a.class ?? ''} ${a.action ?? ''}`)) {
      count++;
    } else count += buyForms(child, cap - count);
    if (count >= cap) return count;
  }
  return count;
}

/**
 * Sets, in place, the product's blocks as a reader sees them, before chrome removal (which
 * drops hidden elements). Its collapsed panels open: the description, specifications and
 * details that shops set in accordions and tabs, hidden until a reader clicks their toggle.
 * A panel is told by ARIA alone: a hidden element (the `hidden` attribute, `display:none`,
 * `aria-hidden`, a hiding class) whose id a toggle names in `aria-controls`, the toggle
 * saying it opens something (`aria-expanded`, or a tab). And the blocks the template hides
 * with the CSS frameworks' utility classes (`hide`, `hidden`, `d-none`) go: a store's
 * metadata fields, a variant's other price, a form's messages. Not when the class list
 * shows it again at some width (`hidden md:block`, `d-none d-lg-block`).
 */
export function showProductBlocks(body: ElementNode): void {
  separateLabels(body);
  const controlled = new Set<string>();
  const panels: ElementNode[] = [];
  const hidden: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const a = child.attrs;
      if (a['aria-controls'] && (a['aria-expanded'] !== undefined || a.role === 'tab')) {
        for (const id of a['aria-controls'].split(/\s+/)) if (id) controlled.add(id);
      }
      const byClass = hiddenByClass(a.class);
      if (a.id !== undefined && (byClass || isHidden(child))) panels.push(child);
      if (byClass) hidden.push(child);
      walk(child);
    }
  };
  walk(body);
  const opened = new Set<ElementNode>();
  for (const panel of panels) {
    if (!controlled.has(panel.attrs.id ?? '')) continue;
    panel.attrs = shownAttrs(panel.attrs);
    opened.add(panel);
  }
  removeNodes(hidden.filter((el) => !opened.has(el) && !holdsProse(el)));
}

/** Class names of a specification's label and of its value (`__label`, `-name`; `__value`). */
const LABEL_CLASS = /(?:^|[\s_-])(?:label|name|key|term|title|attr)(?:$|[\s_-])/i;
const VALUE_CLASS = /(?:^|[\s_-])(?:value|val|data|desc)(?:$|[\s_-])/i;

/**
 * Sets a space, in place, between a specification's label and its value written side by
 * side (`<span class="…__label">Weight</span><span class="…__value">12 oz</span>`): the
 * style sheet sets them apart, and without it they read as one word ("Weight12 oz").
 */
function separateLabels(el: ElementNode): void {
  let previous: ElementNode | null = null;
  for (let i = 0; i < el.children.length; i++) {
    const child = el.children[i] as Node;
    if (child.type === 'text') {
      // a machine id alone (a template's obfuscated "Sponsored" label) is not text to read
      if (MACHINE_ID.test(child.text)) child.text = '';
      else if (child.text !== '') previous = null;
      continue;
    }
    if (previous && isLabel(previous) && VALUE_CLASS.test(child.attrs.class ?? '')) {
      el.children.splice(i, 0, { type: 'text', text: ' ', parent: el });
      i++;
    }
    previous = child;
    separateLabels(child);
  }
}

const MACHINE_ID = /^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i;

const isLabel = (el: ElementNode) => LABEL_CLASS.test(el.attrs.class ?? '');

/** A paragraph this long (characters) is prose: a "read more" toggle's full text. */
const PROSE = 150;

function holdsProse(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'p' ? textLength(child) >= PROSE : holdsProse(child)) return true;
  }
  return false;
}

const HIDING_CLASS = /(?:^|\s)(?:hide|hidden|d-none|is-hidden)(?:$|\s)/;
/** Tailwind's `md:block`, Bootstrap's `d-lg-flex`: shown again from some width on. */
const SHOWING_CLASS =
  /(?:^|\s)(?:[a-z0-9-]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-[a-z]+-(?:block|flex|grid|inline|inline-block|inline-flex|table))(?:$|\s)/;

function hiddenByClass(cls: string | undefined): boolean {
  return cls !== undefined && HIDING_CLASS.test(cls) && !SHOWING_CLASS.test(cls);
}

/** A copy (copies of the tree share attrs objects) without the hiding markers. */
function shownAttrs(attrs: Record<string, string>): Record<string, string> {
  const copy = { ...attrs };
  delete copy.hidden;
  if (copy.class)
    copy.class = copy.class.replace(/(?:^|\s)(?:hide|hidden|d-none|is-hidden)(?=$|\s)/g, '');
  if (copy['aria-hidden'] === 'true') delete copy['aria-hidden'];
  if (copy.style)
    copy.style = copy.style.replace(/(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi, '');
  return copy;
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
    const grid = findProductGrid(body);
    if (!grid || textLength(grid) >= limit || findFirst(grid, 'h1')) break;
    removeNodes([withHeading(grid, body)]);
  }
  const lists: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if ((child.tag === 'ul' || child.tag === 'ol') && isLinkList(child)) lists.push(child);
      else walk(child);
    }
  };
  walk(body);
  removeNodes(lists.map((list) => withHeading(list, body)));
}

/** A list of this many items or more, each all link, is a list of other pages. */
const LINK_ITEMS = 5;

/** Brands, categories, "more inspiration": every item one link and nothing else. */
function isLinkList(list: ElementNode): boolean {
  let items = 0;
  for (const child of list.children) {
    if (child.type === 'text') {
      if (child.text.trim()) return false;
      continue;
    }
    if (child.tag !== 'li') return false;
    const length = textLength(child);
    if (length === 0 || linkDensity(child, length) < 1) return false;
    items++;
  }
  return items >= LINK_ITEMS;
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
    (a.id !== undefined && BESIDE_PRODUCT.test(a.id))
  );
}
