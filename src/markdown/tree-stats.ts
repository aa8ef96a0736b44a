/**
 * Per-element text measures computed once, bottom-up, for one phase of extraction: each
 * element's figures are summed from its children's, so asking for every element of a
 * subtree costs O(subtree) in all instead of O(subtree × depth), as rescanning did.
 *
 * Values equal what the direct walks in measure.ts return (textLength, linkDensity's link
 * length, countTag, ...). Removing through `detach` marks the ancestors stale, and they are
 * recomputed from their children on the next question, so "a parent is judged on what
 * survives inside it" still holds. Detached children are dropped from their parent's
 * array lazily (once per parent), not with one splice per removal.
 */
import type { ElementNode, Node } from './dom.js';
import { textFigures } from './measure.js';

export interface Stats {
  /** Whitespace-collapsed, trimmed text length (= textLength). */
  length: number;
  /** Starts (ends) with whitespace; for empty text: contains any whitespace. */
  lead: boolean;
  trail: boolean;
  /** `,` `，` `、` in the text. */
  commas: number;
  /** Text length inside outermost links: plain links, and in-page `#` links (weigh 0.3). */
  linkText: number;
  hashLinkText: number;
  /** Descendants (not the element itself) with these tags. */
  p: number;
  img: number;
  li: number;
  input: number;
  /** Sum of the text lengths of heading (list) descendants, nested ones counted again. */
  headingText: number;
  listText: number;
  /** object/embed/iframe descendants that are not known video players. */
  embeds: number;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LISTS = new Set(['ul', 'ol']);
const EMBEDS = new Set(['object', 'embed', 'iframe']);
const VIDEO = /youtube|vimeo|dailymotion|player/i;

export class TreeStats {
  private readonly memo = new Map<ElementNode, Stats>();
  /** Parents whose children array still holds detached nodes. */
  private readonly untidy = new Set<ElementNode>();

  of(el: ElementNode): Stats {
    const known = this.memo.get(el);
    if (known) return known;
    if (this.untidy.has(el)) this.tidy(el);
    const s: Stats = {
      length: 0,
      lead: false,
      trail: false,
      commas: 0,
      linkText: 0,
      hashLinkText: 0,
      p: 0,
      img: 0,
      li: 0,
      input: 0,
      headingText: 0,
      listText: 0,
      embeds: 0,
    };
    for (const child of el.children) {
      if (child.type === 'text') {
        const f = textFigures(child);
        s.commas += f.commas;
        appendStats(s, f);
        continue;
      }
      const c = this.of(child);
      s.commas += c.commas;
      appendStats(s, c);
      if (child.tag === 'a') {
        const href = child.attrs.href ?? '';
        if (href.startsWith('#') && href.length > 1) s.hashLinkText += c.length;
        else s.linkText += c.length;
      } else {
        s.linkText += c.linkText;
        s.hashLinkText += c.hashLinkText;
      }
      s.p += c.p + (child.tag === 'p' ? 1 : 0);
      s.img += c.img + (child.tag === 'img' ? 1 : 0);
      s.li += c.li + (child.tag === 'li' ? 1 : 0);
      s.input += c.input + (child.tag === 'input' ? 1 : 0);
      s.headingText += c.headingText + (HEADINGS.has(child.tag) ? c.length : 0);
      s.listText += c.listText + (LISTS.has(child.tag) ? c.length : 0);
      s.embeds += c.embeds;
      if (EMBEDS.has(child.tag) && !VIDEO.test(child.attrs.src ?? '')) s.embeds++;
    }
    this.memo.set(el, s);
    return s;
  }

  /** linkDensity(el) from the memo. */
  linkDensity(el: ElementNode): number {
    const s = this.of(el);
    if (s.length === 0) return 0;
    return (s.linkText + s.hashLinkText * 0.3) / s.length;
  }

  /** Removes `node` from the tree; ancestors are recomputed when next asked. */
  detach(node: Node): void {
    const parent = node.parent;
    if (!parent) return;
    node.parent = null;
    this.untidy.add(parent);
    for (let p: ElementNode | null = parent; p && this.memo.delete(p); p = p.parent) {
      // an ancestor not in the memo has no memoised ancestors that include this node's
      // figures except through it, and those were dropped when it was
    }
  }

  /** Drops detached nodes from every children array still holding them. */
  tidyAll(): void {
    for (const el of this.untidy) this.tidy(el);
  }

  private tidy(el: ElementNode): void {
    el.children = el.children.filter((c) => c.parent === el);
    this.untidy.delete(el);
  }
}

/** Appends a child's text figures: one space where either side has one. */
function appendStats(s: Stats, c: Pick<Stats, 'length' | 'lead' | 'trail'>): void {
  if (c.length === 0) {
    if (c.lead) {
      if (s.length === 0) s.lead = true;
      s.trail = true;
    }
    return;
  }
  if (s.length === 0) {
    s.lead = s.lead || c.lead;
    s.length = c.length;
  } else {
    s.length += c.length + (s.trail || c.lead ? 1 : 0);
  }
  s.trail = c.trail;
}
