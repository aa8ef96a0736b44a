/**
 * The labels a list's template writes into every item. A listing's teasers, a shop
 * category's cards and a forum's posts are built from one template, and beside each item's
 * own words (its title, its snippet, its price, its author) the template prints the same
 * short lines every time: `Sponsored`, `Available for shipping`, `More in this category`,
 * `hide · past · discuss`, a reply's `Re: <the thread's title>`, `Offline`. They tell
 * nothing of the item, and over a list of thirty they are a third of its words.
 *
 * A text that recurs verbatim in most items of a list of one shape (repeated-items.ts) is
 * such a label and is dropped; what differs between the items is kept. Told by repetition
 * alone, so it holds in any language. Not in tables: a column's repeated value (`Yes`, a
 * unit) is data.
 */
import { type ElementNode, removeNodes, type TextNode } from './dom.js';
import { collapsedText, textLengthUpTo } from './measure.js';
import { repeatedItems } from './repeated-items.js';

/** A list has at least this many items before its repeated lines are read as labels. */
const MIN_ITEMS = 4;
/** A label recurs in at least this share of the list's items. */
const LABEL_SHARE = 0.6;
/** A label is a short line (characters); longer repeated text is a sentence someone wrote. */
const LABEL_LENGTH = 80;
/** Text nodes looked at per item: an item is short, a post's long text need not be read whole. */
const PER_ITEM = 300;

/** A table's cells and a program's lines repeat on purpose: they are data. */
const VERBATIM = new Set(['table', 'pre', 'code']);
/** Parents of a table's rows: rows are a table's items, not a list's. */
const ROWS = new Set(['table', 'thead', 'tbody', 'tfoot']);

/** Removes, in place, the labels repeated across the items of each list in `content`. */
export function dropItemLabels(content: ElementNode): void {
  const doomed: TextNode[] = [];
  const walk = (el: ElementNode): void => {
    const items: ReadonlySet<ElementNode> = ROWS.has(el.tag) ? new Set() : repeatedItems(el);
    if (items.size >= MIN_ITEMS) labelsOf([...items], doomed);
    for (const child of el.children) {
      // a list's items are read once, as its items: lists inside them are their own parts
      if (child.type === 'element' && !items.has(child)) walk(child);
    }
  };
  walk(content);
  removeNodes(doomed);
}

/** Pushes onto `doomed` the text nodes of `items` whose text recurs in most of them. */
function labelsOf(items: readonly ElementNode[], doomed: TextNode[]): void {
  const perItem = items.map((item) => (VERBATIM.has(item.tag) ? [] : shortLines(item)));
  const counts = new Map<string, number>();
  for (const lines of perItem) {
    const seen = new Set<string>();
    for (const [text] of lines) {
      if (seen.has(text)) continue;
      seen.add(text);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  }
  const least = Math.max(MIN_ITEMS, LABEL_SHARE * items.length);
  for (const lines of perItem) {
    for (const [text, node] of lines) if ((counts.get(text) ?? 0) >= least) doomed.push(node);
  }
}

/** The item's short text nodes with their text, in page order, up to PER_ITEM nodes. */
function shortLines(item: ElementNode): [string, TextNode][] {
  const lines: [string, TextNode][] = [];
  let budget = PER_ITEM;
  // `next`: the element right after `el` (no text between them), the value a name labels
  const walk = (el: ElementNode, next: ElementNode | null): void => {
    const after = nextElements(el);
    for (let i = 0; i < el.children.length && --budget >= 0; i++) {
      const child = el.children[i] as ElementNode | TextNode;
      if (child.type === 'element') {
        if (!VERBATIM.has(child.tag)) walk(child, after[i] ?? null);
        continue;
      }
      const text = collapsedText(child);
      if (text.length > 0 && text.length <= LABEL_LENGTH && isLabel(text, el, next)) {
        lines.push([text, child]);
      }
    }
  };
  walk(item, null);
  return lines;
}

/** For each child of `el`, the element right after it with no text between, or null. */
function nextElements(el: ElementNode): (ElementNode | null)[] {
  const after: (ElementNode | null)[] = new Array(el.children.length).fill(null);
  let next: ElementNode | null = null;
  for (let i = el.children.length - 1; i >= 0; i--) {
    after[i] = next;
    const c = el.children[i] as ElementNode | TextNode;
    if (c.type === 'element') next = c;
    else if (collapsedText(c).length > 0) next = null;
  }
  return after;
}

/** Phrase markup: a word set off inside a line (a school's name, a brand), not a line of its own. */
const PHRASE = new Set(['em', 'i', 'strong', 'b', 'u', 'mark', 'cite', 'q', 'code', 'pre']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A label stands alone: all the text of its element (a badge, a button-like link, a status
 * line, a reply's heading), in words, and not a field's name: `Weight:`, or a name set
 * apart from its value (`<dt>Duration</dt><dd>4 weeks</dd>`, a label span before a value
 * span: a short line right after it), whose value differs from item to item. A
 * connecting word inside a line (`by`, `from`, `Retrieved`) is a part of that line.
 */
function isLabel(text: string, el: ElementNode, next: ElementNode | null): boolean {
  if (PHRASE.has(el.tag) || text.endsWith(':') || !/\p{L}/u.test(text)) return false;
  if (next && !HEADINGS.has(el.tag)) {
    const value = textLengthUpTo(next, LABEL_LENGTH + 1);
    if (value > 0 && value <= LABEL_LENGTH) return false;
  }
  let words = 0;
  for (const c of el.children) {
    if (c.type === 'element') return false;
    if (collapsedText(c).length > 0 && ++words > 1) return false;
  }
  return true;
}
