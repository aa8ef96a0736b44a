/**
 * The list the extraction took one item of. On a listing or a collection (a news section, a
 * shop's category, a blog's front page) the content is many sibling blocks of one shape,
 * each an item with its link and title (and a snippet, a price, a date), and the
 * Readability-style scorer keeps the item with the most prose: one teaser, one product.
 * When the text the extraction kept lies inside such a list and the list holds several
 * times that text, the list is the content.
 *
 * Only around the extracted text: a list beside it (teasers under a story, a footer's link
 * columns) is not looked at. Recognised by shape alone (the items' tag and class, a link in
 * each, the items holding most of the list's text), so it holds in any language.
 */
import type { ElementNode, TextFigures } from './dom.js';
import { linkDensity, textFigures, textLength } from './measure.js';
import { MIN_ITEMS, repeatedItems, shapeOf } from './repeated-items.js';

/** The items hold at least this share of the list's text (the rest: its heading, its pager). */
const ITEMS_SHARE = 0.6;
/** At least this share of the extracted text lies inside the list. */
const INSIDE_SHARE = 0.8;
/** The list replaces the extraction when it holds this many times its text. */
const WIDE_LIST = 2;

interface Figures {
  text: number;
  /** Text of the extracted content inside. */
  kept: number;
  /** Holds a link with an address. */
  link: boolean;
}

/**
 * The innermost list of `body` (the tree the extraction copied, as it was) that holds the
 * extracted content `kept` and WIDE_LIST times its text, or null. Not a copy.
 */
export function listAround(kept: ElementNode, body: ElementNode): ElementNode | null {
  const marks = new Set<TextFigures>();
  let keptText = 0;
  const mark = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type === 'element') mark(child);
      else {
        const f = textFigures(child);
        if (f.length > 0) {
          marks.add(f);
          keptText += f.length;
        }
      }
    }
  };
  mark(kept);
  if (keptText === 0) return null;

  let found: ElementNode | null = null;
  const walk = (el: ElementNode): Figures => {
    const own: Figures = { text: 0, kept: 0, link: el.tag === 'a' && Boolean(el.attrs.href) };
    const items: { el: ElementNode; figures: Figures }[] = [];
    for (const child of el.children) {
      if (child.type === 'text') {
        const f = textFigures(child);
        own.text += f.length;
        if (marks.has(f)) own.kept += f.length;
        continue;
      }
      const figures = walk(child);
      own.text += figures.text;
      own.kept += figures.kept;
      own.link ||= figures.link;
      items.push({ el: child, figures });
    }
    if (
      !found &&
      own.kept >= INSIDE_SHARE * keptText &&
      own.text >= WIDE_LIST * keptText &&
      isList(own, items)
    ) {
      found = el;
    }
    return own;
  };
  walk(body);
  return found;
}

/**
 * Links hold under this share of an item's text when the item says something of its own (a
 * snippet, a price, a date beside its title): a menu's or a teaser list's entries are their
 * links and nothing else.
 */
const DESCRIBED = 0.7;

/**
 * The items of `list` (a copy of listAround's answer) that hold text besides their links:
 * the listing's entries, which trimming must not judge as boilerplate by their short lines
 * or their classes.
 */
export function describedItems(list: ElementNode): ReadonlySet<ElementNode> {
  const items = new Set<ElementNode>();
  // one block holding a third of the list is a story among its teasers, not an entry
  const most = textLength(list) / MIN_ITEMS;
  for (const item of repeatedItems(list)) {
    const length = textLength(item);
    if (length <= most && linkDensity(item, length) < DESCRIBED) items.add(item);
  }
  return items.size >= MIN_ITEMS ? items : new Set();
}

/** Most of the element's text in MIN_ITEMS or more children of one shape, each with a link. */
function isList(own: Figures, items: { el: ElementNode; figures: Figures }[]): boolean {
  if (items.length < MIN_ITEMS || own.text === 0) return false;
  const shapes = new Map<string, { count: number; text: number }>();
  for (const { el, figures } of items) {
    if (!figures.link || figures.text === 0) continue;
    const key = shapeOf(el);
    if (key === null) continue;
    const shape = shapes.get(key) ?? { count: 0, text: 0 };
    shape.count++;
    shape.text += figures.text;
    shapes.set(key, shape);
  }
  for (const shape of shapes.values()) {
    if (shape.count >= MIN_ITEMS && shape.text >= ITEMS_SHARE * own.text) return true;
  }
  return false;
}
