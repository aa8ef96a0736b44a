/**
 * The items of a list written as sibling blocks of one shape: a listing's teasers, a shop
 * category's cards, a forum's posts. Such items are short and name things (a title, a
 * price, a date) rather than say them in sentences, like a table's cells or a `<ul>`'s
 * entries: judged by their words they read as boilerplate. Told by shape alone (tag and
 * first class, MIN_ITEMS of them, each with a link), so it holds in any language.
 */
import type { ElementNode } from './dom.js';

/** A list has at least this many items of one shape. */
export const MIN_ITEMS = 3;

/** Elements that are items by their tag, with a class or without. */
const ITEM_TAGS = new Set(['li', 'article', 'tr', 'dt', 'dd']);

const FIRST_CLASS = /\S+/;

/**
 * Tag and first class, digits left out: templates number their items (`post-12`, `item_3`)
 * and add the item's own classes after the shared one (`entry category-news tag-ai`). Null
 * for a block without class that is not an item by its tag: classless divs side by side are
 * the page's layout (its columns and rows), not a list's items.
 */
export function shapeOf(el: ElementNode): string | null {
  const cls = FIRST_CLASS.exec(el.attrs.class ?? '')?.[0].replace(/\d+/g, '') ?? '';
  if (!cls && !ITEM_TAGS.has(el.tag)) return null;
  return `${el.tag} ${cls}`;
}

/**
 * The children of `el` that are items of a list of one shape (MIN_ITEMS or more of them,
 * each holding a link with an address); empty when there is none.
 */
export function repeatedItems(el: ElementNode): ReadonlySet<ElementNode> {
  let shapes: Map<string, ElementNode[]> | null = null;
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    const key = shapeOf(child);
    if (key === null) continue;
    shapes ??= new Map();
    const group = shapes.get(key);
    if (group) group.push(child);
    else shapes.set(key, [child]);
  }
  const items = new Set<ElementNode>();
  if (!shapes) return items;
  for (const group of shapes.values()) {
    if (group.length < MIN_ITEMS) continue;
    const linked = group.filter(holdsLink);
    if (linked.length >= MIN_ITEMS) for (const item of linked) items.add(item);
  }
  return items;
}

function holdsLink(el: ElementNode): boolean {
  if (el.tag === 'a' && el.attrs.href) return true;
  for (const child of el.children) if (child.type === 'element' && holdsLink(child)) return true;
  return false;
}
