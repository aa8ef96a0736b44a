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

/** Fewer siblings of one shape than this are a few blocks, not a list. */
const MIN_ITEMS = 4;
/** An item holds at least this many characters of text (a title, not an icon's label). */
const MIN_ITEM_TEXT = 15;
/** A list holds at least this much text in its items. */
const MIN_LIST_TEXT = 400;

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
  const list = findItemList(body);
  if (!list) return null;
  const chosenLength = textLength(chosen);
  const listLength = textLength(list);
  if (listLength < WIDE_LIST * chosenLength) return null;
  if (linkDensity(list, listLength) > MAX_LINK_DENSITY) return null;
  if (shareFound(innerText(chosen), innerText(list)) < MIN_SHARE) return null;
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

/** The element whose same-shaped, linked children hold the most text, or null. */
export function findItemList(body: ElementNode): ElementNode | null {
  let best: ElementNode | null = null;
  let bestText = MIN_LIST_TEXT - 1;
  const measure = (el: ElementNode, inLink: boolean): Measure => {
    const own: Measure = { text: 0, linked: 0 };
    const linking = inLink || (el.tag === 'a' && el.attrs.href !== undefined);
    const groups = new Map<string, { count: number; text: number }>();
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
      if (m.text < MIN_ITEM_TEXT || m.linked === 0) continue;
      const shape = `${child.tag}.${child.attrs.class ?? ''}`;
      const group = groups.get(shape);
      if (group) {
        group.count++;
        group.text += m.text;
      } else {
        groups.set(shape, { count: 1, text: m.text });
      }
    }
    for (const group of groups.values()) {
      if (group.count >= MIN_ITEMS && group.text > bestText) {
        best = el;
        bestText = group.text;
      }
    }
    return own;
  };
  measure(body, false);
  return best;
}

function countNonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}
