/**
 * Text measures the extractor decides with: visible text, link density, class weight.
 * Lengths are of whitespace-collapsed text, as a reader sees it.
 */
import type { ElementNode, Node, TextFigures, TextNode } from './dom.js';
import { authoredClassOf } from './utility-classes.js';

export function innerText(node: Node): string {
  // most elements asked about (paragraphs, links, labels) hold one text node, often through
  // single wrappers: its collapsed text is kept with its measures, which copies share, so
  // every pass and attempt asks the regex once per string
  let only: Node = node;
  while (only.type === 'element' && only.children.length === 1) only = only.children[0] as Node;
  if (only.type === 'text') return collapsedText(only);
  const parts: string[] = [];
  collect(node, parts);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The text node's text, whitespace collapsed and trimmed; kept with its measures. */
export function collapsedText(node: TextNode): string {
  const f = textFigures(node);
  if (f.collapsed === null) f.collapsed = node.text.replace(/\s+/g, ' ').trim();
  return f.collapsed;
}

/**
 * The first `cap` characters of what innerText gives for these text nodes in a row, from
 * each node's kept collapsed text: a long text read again by many callers is collapsed once.
 */
export function collapsedPrefix(nodes: readonly TextNode[], cap: number): string {
  let out = '';
  let pendingSpace = false;
  for (const node of nodes) {
    if (out.length >= cap) break;
    const f = textFigures(node);
    if (f.length === 0) {
      if (f.lead && out.length > 0) pendingSpace = true;
      continue;
    }
    if (out.length > 0 && (pendingSpace || f.lead)) out += ' ';
    out += collapsedText(node);
    pendingSpace = f.trail;
  }
  return out.length > cap ? out.slice(0, cap) : out;
}

function collect(node: Node, parts: string[]): void {
  if (node.type === 'text') {
    parts.push(node.text);
    return;
  }
  for (const child of node.children) collect(child, parts);
}

/**
 * `innerText(node).length` without building the string: the hot measure of extraction
 * (profiling showed the string version at ~17% of conversion time).
 */
export function textLength(node: Node): number {
  const state = { length: 0, pendingSpace: false };
  countText(node, state);
  return state.length;
}

/**
 * `textLength(node)` when it is under `cap`, else some figure ≥ `cap`: the count stops
 * there. For tests of "a short element" asked of every block in a walk, where a full count
 * of each block would make the walk quadratic in the nesting depth.
 */
export function textLengthUpTo(node: Node, cap: number): number {
  const state = { length: 0, pendingSpace: false };
  countTextUpTo(node, state, cap);
  return state.length;
}

function countTextUpTo(
  node: Node,
  state: { length: number; pendingSpace: boolean },
  cap: number,
): void {
  if (node.type === 'text') {
    countText(node, state);
    return;
  }
  for (const child of node.children) {
    // the count only grows: once at the cap, the rest cannot bring it under
    if (state.length >= cap) return;
    countTextUpTo(child, state, cap);
  }
}

function countText(node: Node, state: { length: number; pendingSpace: boolean }): void {
  if (node.type === 'element') {
    for (const child of node.children) countText(child, state);
    return;
  }
  const f = textFigures(node);
  if (f.length === 0) {
    if (f.lead && state.length > 0) state.pendingSpace = true;
    return;
  }
  if (state.length > 0 && (state.pendingSpace || f.lead)) state.length++;
  state.length += f.length;
  state.pendingSpace = f.trail;
}

/**
 * The measures of `kept`'s text nodes, each counted once, and their total length: a copy's
 * text nodes share their measures with the tree they were copied from, so a pass over that
 * tree tells which of its text the copy kept (page-sections.ts, thread-posts.ts).
 */
export function keptTextMarks(kept: ElementNode): { marks: Set<TextFigures>; length: number } {
  const marks = new Set<TextFigures>();
  let length = 0;
  const mark = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type === 'element') mark(child);
      else {
        const f = textFigures(child);
        if (f.length > 0 && !marks.has(f)) {
          marks.add(f);
          length += f.length;
        }
      }
    }
  };
  mark(kept);
  return { marks, length };
}

/**
 * The text node's measures, taken once per string: every measure of an ancestor is then
 * a walk over nodes, not over characters (the character loop was a fifth of conversion).
 */
export function textFigures(node: TextNode): TextFigures {
  const known = node.measured;
  if (known !== undefined && known.of === node.text) return known;
  const text = node.text;
  const f: TextFigures = {
    of: text,
    length: 0,
    lead: false,
    trail: false,
    commas: 0,
    solid: 0,
    collapsed: null,
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (f.length === 0) f.lead = true;
      f.trail = true;
      continue;
    }
    if (c === 44 || c === 0xff0c || c === 0x3001) f.commas++;
    f.solid++;
    if (f.length > 0 && f.trail) f.length++;
    f.trail = false;
    f.length++;
  }
  node.measured = f;
  return f;
}

/** Whitespace as `\s` matches it, by char code (the hot loop of text measures). */
export function isSpace(c: number): boolean {
  if (c > 32 && c < 160) return false;
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Share of the element's text that sits inside links; `#` links count less (in-page). */
export function linkDensity(node: ElementNode, length = textLength(node)): number {
  if (length === 0) return 0;
  let linkLength = 0;
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'a') {
        const href = child.attrs.href ?? '';
        const coefficient = href.startsWith('#') && href.length > 1 ? 0.3 : 1;
        linkLength += textLength(child) * coefficient;
      } else walk(child);
    }
  };
  walk(node);
  return linkLength / length;
}

const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

/** NEGATIVE without the names of comments, for pages whose content is their posts. */
const NEGATIVE_BUT_COMMENTS =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

/**
 * Readability's class weight: ±25 for each of class and id that looks like content or chrome.
 * `commentsAreContent`: comment names weigh nothing (a thread page, see thread-page.ts).
 */
export function classWeight(node: ElementNode, commentsAreContent = false): number {
  const negative = commentsAreContent ? NEGATIVE_BUT_COMMENTS : NEGATIVE;
  let weight = 0;
  // utility classes (`overflow-hidden`, `bg-scroll`) say how a box looks, not that it is
  // chrome; the content test still reads them: typography utilities (`text-lg`) style text,
  // and without their weight a Tailwind page's grid lost to a block beside it
  // (taking the utilities out removes tokens, so it is asked only of a class that matches)
  const cls = node.attrs.class;
  if (cls && negative.test(cls) && negative.test(authoredClassOf(node))) weight -= 25;
  if (cls && POSITIVE.test(cls)) weight += 25;
  const id = node.attrs.id;
  if (id) {
    if (negative.test(id)) weight -= 25;
    if (POSITIVE.test(id)) weight += 25;
  }
  return weight;
}

export function countTag(node: ElementNode, tags: ReadonlySet<string>): number {
  let n = 0;
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (tags.has(child.tag)) n++;
    n += countTag(child, tags);
  }
  return n;
}

export function elementsByTag(
  node: ElementNode,
  tags: ReadonlySet<string>,
  out: ElementNode[] = [],
) {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (tags.has(child.tag)) out.push(child);
    elementsByTag(child, tags, out);
  }
  return out;
}

export function hasAncestor(node: ElementNode, tag: string, maxDepth = 3): boolean {
  let depth = 0;
  for (let p = node.parent; p; p = p.parent) {
    if (maxDepth > 0 && depth > maxDepth) return false;
    if (p.tag === tag) return true;
    depth++;
  }
  return false;
}

export function elementChildren(node: ElementNode): ElementNode[] {
  return node.children.filter((c): c is ElementNode => c.type === 'element');
}

/**
 * A news dateline opening the paragraph it stands in (`<p><span class="dateline">KOBE –
 * </span>A total of…`): the wire style starts the first sentence with the place, so it is
 * the sentence's beginning, not a line of metadata. Only when it is the paragraph's first
 * content and a sentence's worth of text follows it.
 */
export function opensParagraph(el: ElementNode): boolean {
  const paragraph = el.parent;
  if (paragraph?.tag !== 'p') return false;
  const first = paragraph.children.find((c) => c.type === 'element' || c.text.trim() !== '');
  return first === el && textLength(paragraph) > textLength(el) + 100;
}

/** What shows a picture: an image, a `<picture>` or a video. */
export const PICTURES: ReadonlySet<string> = new Set(['img', 'picture', 'video']);

/** Whether a picture (PICTURES) is anywhere below `el`. */
export function holdsPicture(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (PICTURES.has(child.tag) || holdsPicture(child)) return true;
  }
  return false;
}
