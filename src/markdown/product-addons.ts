/**
 * A product's own add-ons: a game's downloadable packs, a product's editions, listed under it
 * in a priced grid whose cards are named after it ("<name> - <pack>", "<name>: <edition>").
 * product-grid.ts reads such a grid as a collection's, and product-page.ts drops it as other
 * products; but they are the product's, and WCXB's references keep their names. A grid is
 * the product's add-ons when nearly all its cards' names start with the name the page's
 * schema.org Product data gives (microdata `itemprop="name"` in the Product's scope, or a
 * JSON-LD Product's `name`), followed by a separator, not a letter or digit. A collection
 * dressed as a Product (a category named "gas barbecues") names its cards by brand first;
 * a product's related items share leading words, not the whole name. Names and shapes, not
 * a language's words.
 */
import { createElement, type ElementNode, type Node } from './dom.js';
import { innerText } from './measure.js';
import { PRODUCT_ITEMTYPE } from './product-page.js';
import { productNames } from './structured-body.js';

/** Share of a grid's cards named after the product for the grid to be its add-ons. */
const NAMED_SHARE = 0.8;
/** A product name shorter than this (characters) names too little to be matched. */
const MIN_NAME = 3;

/** The names the page's schema.org Product data gives the product, in lower case. */
export function pageProductNames(root: ElementNode, jsonLd: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of productNames(jsonLd)) names.add(normal(name));
  const walk = (el: ElementNode, inProduct: boolean): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const scope = child.attrs.itemscope !== undefined;
      const product = scope
        ? (child.attrs.itemtype ?? '').split(/\s+/).some((t) => PRODUCT_ITEMTYPE.test(t))
        : inProduct;
      if (product && child.attrs.itemprop === 'name') {
        names.add(normal(child.attrs.content ?? innerText(child)));
      } else walk(child, product);
    }
  };
  walk(root, false);
  return [...names].filter((n) => n.length >= MIN_NAME);
}

/**
 * The add-on names of each grid of `grids` that lists the product's add-ons, by grid; a grid
 * that does not is left out.
 */
export function addOnGrids(
  grids: readonly ElementNode[],
  names: readonly string[],
): Map<ElementNode, string[]> {
  const out = new Map<ElementNode, string[]>();
  if (names.length === 0) return out;
  for (const grid of grids) {
    const cards = grid.children.filter((c): c is ElementNode => c.type === 'element');
    const named: string[] = [];
    for (const card of cards) {
      const name = cardName(card, names);
      if (name) named.push(name);
    }
    if (cards.length > 0 && named.length >= cards.length * NAMED_SHARE) out.set(grid, named);
  }
  return out;
}

/**
 * Sets, in place, each add-on grid as a list of its add-ons' names, shown (a "show all"
 * half of the list is hidden until clicked) and out of the cart form around them, which
 * chrome removal takes: the names are the product's; prices and badges are the shop's.
 */
export function showAddOns(addOns: ReadonlyMap<ElementNode, string[]>): void {
  for (const [grid, names] of addOns) {
    const parent = grid.parent;
    if (!parent) continue;
    const list = createElement('ul');
    list.parent = parent;
    for (const name of names) {
      const item = createElement('li');
      item.parent = list;
      item.children = [{ type: 'text', text: name, parent: item }];
      list.children.push(item);
    }
    parent.children[parent.children.indexOf(grid)] = list;
    grid.parent = null;
    for (let p: ElementNode | null = parent; p; p = p.parent) if (p.tag === 'form') p.tag = 'div';
  }
}

/** The card's first text that starts with one of the product's names and a separator. */
function cardName(card: ElementNode, names: readonly string[]): string | null {
  const walk = (el: ElementNode): string | null => {
    for (const child of el.children as Node[]) {
      if (child.type === 'text') {
        const text = child.text.replace(/\s+/g, ' ').trim();
        if (text && startsWithName(text, names)) return text;
      } else if (child.type === 'element') {
        const found = walk(child);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(card);
}

function startsWithName(text: string, names: readonly string[]): boolean {
  const key = normal(text);
  // the name, then a separator and the add-on's own name
  return names.some((name) => key.startsWith(name) && SEPARATOR.test(key.slice(name.length)));
}

/** A separator after the name: punctuation (a dash, a colon), then the add-on's own name. */
const SEPARATOR = /^\s?[^\p{L}\p{N}\s]+\s?[\p{L}\p{N}]/u;

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
