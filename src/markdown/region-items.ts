/**
 * The items of every list in a page's region: sibling blocks of one shape (repeated-items.ts)
 * anywhere in it, each a small part of its list, more than a link, and titled by a link
 * when it has a heading. On a listing (a blog's index, a chart, a results page) the region's
 * content is these items, whose short lines and part names (`title-metadata`,
 * `ratings-container`) the article trims read as boilerplate.
 */
import type { ElementNode } from './dom.js';
import { MIN_ITEMS, repeatedItems } from './repeated-items.js';
import { TreeStats } from './tree-stats.js';

/**
 * Links hold under this share of an item's text when the item says something of its own (a
 * snippet, a price, a date beside its title); a menu's entries are their links.
 */
const DESCRIBED = 0.7;
/** A heading is a link when links to other pages hold this share of its text. */
const TITLE_LINKED = 0.5;
/** Nodes looked through for an item's heading: a card's title comes early. */
const LOOK = 200;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export interface RegionItems {
  items: ReadonlySet<ElementNode>;
  /** Text of the items that lie in no other item (nested lists counted once). */
  outerText: number;
}

/** The items of all lists under `root`; one pass, each parent's children grouped once. */
export function regionItems(root: ElementNode): RegionItems {
  const stats = new TreeStats();
  const items = new Set<ElementNode>();
  let outerText = 0;
  const walk = (el: ElementNode, inItem: boolean): void => {
    const kept = listedItems(el, stats);
    for (const item of kept) {
      items.add(item);
      if (!inItem) outerText += stats.of(item).length;
    }
    for (const child of el.children) {
      if (child.type === 'element') walk(child, inItem || kept.has(child));
    }
  };
  walk(root, false);
  return { items, outerText };
}

/** The children of `el` that are a list's items, or none when fewer than MIN_ITEMS are. */
function listedItems(el: ElementNode, stats: TreeStats): ReadonlySet<ElementNode> {
  const found = repeatedItems(el);
  if (found.size === 0) return found;
  // one block holding a third of its list is a story among teasers, not an item
  const most = stats.of(el).length / MIN_ITEMS;
  const kept = new Set<ElementNode>();
  for (const item of found) {
    const s = stats.of(item);
    if (s.length === 0 || s.length > most) continue;
    // the figures count the links inside an element: a link's own text is all link text
    const linkText = item.tag === 'a' ? s.length : s.linkText;
    if (linkText < DESCRIBED * s.length && titledByLink(item, stats)) kept.add(item);
  }
  return kept.size >= MIN_ITEMS ? kept : new Set();
}

/**
 * An item with a heading is a teaser when its heading links to another page (the title of
 * what it lists: `<a><h3>` or `<h3><a>`). A heading without a link, or linking within the
 * page (a post's permalink `#p123`, a method's anchor), heads a part of this page: a
 * section, a post, an entry of a reference (whose signature links to its types). An item
 * without a heading (a title link and a price) is judged by its links alone.
 */
function titledByLink(item: ElementNode, stats: TreeStats): boolean {
  let budget = LOOK;
  let verdict: boolean | null = null;
  const look = (el: ElementNode, link: boolean): void => {
    for (const c of el.children) {
      if (verdict !== null || --budget < 0) return;
      if (c.type !== 'element') continue;
      const inLink = link || isPageLink(c);
      if (HEADINGS.has(c.tag)) {
        verdict = inLink || pageLinkText(c, stats) >= TITLE_LINKED * stats.of(c).length;
        return;
      }
      look(c, inLink);
    }
  };
  look(item, isPageLink(item));
  return verdict ?? true;
}

function isPageLink(el: ElementNode): boolean {
  const href = el.tag === 'a' ? el.attrs.href : undefined;
  return href !== undefined && href.length > 0 && !href.startsWith('#');
}

/** Text inside links to other pages under `heading` (a heading is short: walked whole). */
function pageLinkText(heading: ElementNode, stats: TreeStats): number {
  let n = 0;
  for (const c of heading.children) {
    if (c.type === 'element') n += isPageLink(c) ? stats.of(c).length : pageLinkText(c, stats);
  }
  return n;
}
