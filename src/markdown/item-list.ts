/**
 * The page's list of items: on a listing, a collection or a shop's category page the content
 * is many sibling blocks of one shape (the same tag and class), each with a link and a
 * title (a product card, a post teaser, a search hit). The Readability-style scorer reads
 * such blocks as link-heavy chrome and keeps one text block beside them. Recognised from the
 * structure alone, in any language: no word lists.
 *
 * One walk over the tree (chrome already removed), lengths counted bottom-up, so the cost is
 * that of one textLength of the body.
 */
import { cloneElement } from './clone.js';
import type { ElementNode } from './dom.js';
import { innerText, linkDensity, textLength } from './measure.js';

/**
 * Items are blocks: sibling paragraphs and headings with links are an article's text, and
 * of one shape as much as a list's items are.
 */
const NOT_ITEMS: ReadonlySet<string> = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br']);
/** Items that are all link text are a menu (a navigation's flyouts), not a list of items. */
const MAX_ITEM_LINKS = 0.85;
/** Fewer siblings of one shape than this are a few blocks, not a list. */
const MIN_ITEMS = 4;
/** An item holds at least this many characters of text (a title, not an icon's label). */
const MIN_ITEM_TEXT = 15;
/** A list holds at least this much text in its items. */
const MIN_LIST_TEXT = 400;
/**
 * No item holds more than this share of the list's text: items are of a size, while a
 * template's layout rows (header, content, footer, each a `div.row` with links) have one
 * row that dwarfs the others (on articles of the segments corpus).
 */
const MAX_ITEM_SHARE = 0.4;

interface Group {
  count: number;
  text: number;
  linked: number;
  largest: number;
}

interface Measure {
  /** Characters of text, white space not counted. */
  text: number;
  /** Characters of text inside links. */
  linked: number;
}

/** The list replaces the extraction when it holds this many times its text... */
const WIDE_LIST = 2;
/** ...is not mostly link text (a menu, a tag cloud, a footer of links)... */
const MAX_LINK_DENSITY = 0.7;
/** ...and holds this share of the extraction's text: the scorer had kept a part of the list. */
const MIN_SHARE = 0.5;
/** The extraction's text is looked for in the list in probes this long, this far apart. */
const PROBE = 40;
const PROBE_STEP = 200;

/**
 * The page's list of items (a copy) when the extraction `chosen` took a part of it (one
 * item's snippet, a text block between items): the items are the content. Null otherwise,
 * and on pages whose list is another thing than the text the extraction found (an article
 * with a long list of teasers below it).
 */
export function itemListFor(body: ElementNode, chosen: ElementNode): ElementNode | null {
  const found = findItemList(body);
  if (!found) return null;
  const { list, shape } = found;
  const chosenLength = textLength(chosen);
  const listLength = textLength(list);
  if (listLength < WIDE_LIST * chosenLength) return null;
  if (linkDensity(list, listLength) > MAX_LINK_DENSITY) return null;
  // looked for in the items, not the whole container: a `<main>` whose children are a
  // menu's flyouts and the article holds the article, but the article is no item
  const items = list.children.filter((c) => c.type === 'element' && shapeOf(c) === shape);
  if (shareFound(innerText(chosen), items.map(innerText).join(' ')) < MIN_SHARE) return null;
  return cloneElement(list);
}

/** The share of `text`'s probes found in `within`. */
function shareFound(text: string, within: string): number {
  let probes = 0;
  let found = 0;
  for (let i = 0; i + PROBE <= text.length; i += PROBE_STEP) {
    probes++;
    if (within.includes(text.slice(i, i + PROBE))) found++;
  }
  return probes === 0 ? 0 : found / probes;
}

const shapeOf = (el: ElementNode) => `${el.tag}.${el.attrs.class ?? ''}`;

/**
 * The element whose same-shaped, linked children hold the most text, with their shape; null
 * when there is none.
 */
export function findItemList(body: ElementNode): { list: ElementNode; shape: string } | null {
  let best: ElementNode | null = null;
  let bestShape = '';
  let bestText = MIN_LIST_TEXT - 1;
  const measure = (el: ElementNode, inLink: boolean): Measure => {
    const own: Measure = { text: 0, linked: 0 };
    const linking = inLink || (el.tag === 'a' && el.attrs.href !== undefined);
    const groups = new Map<string, Group>();
    for (const child of el.children) {
      if (child.type === 'text') {
        const n = countNonSpace(child.text);
        own.text += n;
        if (linking) own.linked += n;
        continue;
      }
      const m = measure(child, linking);
      own.text += m.text;
      own.linked += m.linked;
      // an item has a link (its title's, often the whole card) and more than a label's text
      if (m.text < MIN_ITEM_TEXT || m.linked === 0 || NOT_ITEMS.has(child.tag)) continue;
      const shape = shapeOf(child);
      const group = groups.get(shape);
      if (group) {
        group.count++;
        group.text += m.text;
        group.linked += m.linked;
        group.largest = Math.max(group.largest, m.text);
      } else {
        groups.set(shape, { count: 1, text: m.text, linked: m.linked, largest: m.text });
      }
    }
    for (const [shape, group] of groups) {
      if (
        group.count >= MIN_ITEMS &&
        group.text > bestText &&
        group.linked <= MAX_ITEM_LINKS * group.text &&
        group.largest <= MAX_ITEM_SHARE * group.text
      ) {
        best = el;
        bestShape = shape;
        bestText = group.text;
      }
    }
    return own;
  };
  measure(body, false);
  return best ? { list: best, shape: bestShape } : null;
}

function countNonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}
