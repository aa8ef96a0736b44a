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
import { textFigures } from './measure.js';

/** A list has at least this many items of one shape. */
const MIN_ITEMS = 3;
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

/** Elements that are items by their tag, with a class or without. */
const ITEM_TAGS = new Set(['li', 'article', 'tr', 'dt', 'dd']);

const FIRST_CLASS = /\S+/;

/**
 * Tag and first class, digits left out: templates number their items (`post-12`, `item_3`)
 * and add the item's own classes after the shared one (`entry category-news tag-ai`). Null
 * for a block without class that is not an item by its tag: classless divs side by side are
 * the page's layout (its columns and rows), not a list's items.
 */
function shapeOf(el: ElementNode): string | null {
  const cls = FIRST_CLASS.exec(el.attrs.class ?? '')?.[0].replace(/\d+/g, '') ?? '';
  if (!cls && !ITEM_TAGS.has(el.tag)) return null;
  return `${el.tag} ${cls}`;
}
