/**
 * The first walk of extraction (Readability's grabArticle loop): removes unlikely
 * candidates, the byline, the heading that repeats the title and empty wrappers; turns
 * text-only divs into paragraphs; and returns the elements whose text gets scored.
 */
import { createElement, type ElementNode, type Node } from './dom.js';
import { innerText, linkDensity, opensParagraph, textLength, textLengthUpTo } from './measure.js';

export interface ExtractFlags {
  stripUnlikely: boolean;
  weightClasses: boolean;
  cleanConditionally: boolean;
  /**
   * Filled in by the pass: which flags changed (or may have changed) a decision. A flag
   * that changed none can be turned off without changing the result, so the retry that
   * only does that is skipped.
   */
  used?: FlagUse;
  /**
   * The page is a thread (thread-page.ts): its posts sit in comment-named containers and
   * are its content, so comment names neither strip nor weigh against an element.
   */
  commentsAreContent?: boolean;
}

export type FlagUse = Record<'stripUnlikely' | 'weightClasses' | 'cleanConditionally', boolean>;

const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const UNLIKELY_BUT_COMMENTS =
  /-ad-|ai2html|banner|breadcrumbs|combx|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE_CANDIDATE = /and|article|body|column|content|main|mathjax|shadow/i;
const UNLIKELY_ROLES = new Set([
  'menu',
  'menubar',
  'complementary',
  'navigation',
  'alert',
  'alertdialog',
  'dialog',
]);
/** A heading this many times longer than the title does not repeat it (mayRepeatTitle). */
const TITLE_HEADING_FACTOR = 4;
const BYLINE = /byline|author|dateline|writtenby|p-author/i;
const TAGS_TO_SCORE = new Set(['section', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'td', 'pre']);
const BLOCK_TAGS = new Set([
  'blockquote',
  'dl',
  'div',
  'img',
  'ol',
  'p',
  'pre',
  'table',
  'ul',
  'section',
  'article',
  'figure',
  'header',
  'footer',
  'aside',
  'main',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'form',
  'nav',
]);
const PHRASING_EXCLUDED = new Set([...BLOCK_TAGS, 'li', 'td', 'th', 'tr', 'table', 'figcaption']);
const EMPTY_REMOVABLE = new Set(['div', 'section', 'header', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MEDIA = new Set(['img', 'picture', 'video', 'audio', 'iframe', 'object', 'embed', 'hr']);

/**
 * Walks the tree removing unlikely candidates, bylines, the title heading and empty
 * wrappers; turns text-only divs into paragraphs; returns the elements to score.
 */
export function collectScorable(
  body: ElementNode,
  title: string,
  flags: ExtractFlags,
): ElementNode[] {
  const out: ElementNode[] = [];
  let bylineFound = false;
  let titleRemoved = false;
  // returns false when `el` is to be removed; parents drop such children in one pass
  const unlikely = flags.commentsAreContent ? UNLIKELY_BUT_COMMENTS : UNLIKELY;
  // the laxest pass (the others found too little in paragraphs) also scores the list items
  // written as prose: a page can hold its text in lists (an FAQ's answers as steps), and
  // then a grid of short linked blurbs outscores it
  const scoreItems = !flags.stripUnlikely && !flags.weightClasses && !flags.cleanConditionally;
  const visit = (el: ElementNode): boolean => {
    const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
    if (!bylineFound && el !== body && isByline(el, match)) {
      bylineFound = true;
      return false;
    }
    if (
      !titleRemoved &&
      (el.tag === 'h1' || el.tag === 'h2') &&
      mayRepeatTitle(el, title) &&
      similar(title, innerText(el))
    ) {
      titleRemoved = true;
      return false;
    }
    if (flags.stripUnlikely && el.tag !== 'body' && el.tag !== 'a') {
      if (
        unlikely.test(match) &&
        !MAYBE_CANDIDATE.test(match) &&
        !hasAncestorTag(el, 'table') &&
        !hasAncestorTag(el, 'code') &&
        !(onlyHeaderOrMenu(match, unlikely) && holdsProse(el))
      ) {
        if (flags.used) flags.used.stripUnlikely = true;
        return false;
      }
      if (el.attrs.role && UNLIKELY_ROLES.has(el.attrs.role)) {
        if (flags.used) flags.used.stripUnlikely = true;
        return false;
      }
    }
    if (EMPTY_REMOVABLE.has(el.tag) && isWithoutContent(el)) {
      return false;
    }
    if (TAGS_TO_SCORE.has(el.tag) || (scoreItems && el.tag === 'li' && isProseItem(el)))
      out.push(el);
    if (el.tag === 'div') {
      wrapPhrasingRuns(el);
      if (!hasBlockChild(el)) {
        el.tag = 'p';
        out.push(el);
      }
    }
    const kept: Node[] = [];
    for (const child of el.children) {
      if (child.type === 'text' || visit(child)) kept.push(child);
      else child.parent = null;
    }
    el.children = kept;
    return true;
  };
  visit(body);
  return out;
}

function isByline(el: ElementNode, match: string): boolean {
  const isMarked =
    el.attrs.rel === 'author' || (el.attrs.itemprop ?? '').includes('author') || BYLINE.test(match);
  if (!isMarked) return false;
  // a dateline opening the first sentence belongs to it (measure.ts)
  if (opensParagraph(el)) return false;
  const length = textLength(el);
  return length > 0 && length < 100;
}

/**
 * A heading that repeats the title is about as long as the title; a far longer one is a page
 * that puts its text in a heading. Counted up to the bound only: headings nested in headings
 * would otherwise each read all the text below them.
 */
function mayRepeatTitle(heading: ElementNode, title: string): boolean {
  const bound = TITLE_HEADING_FACTOR * title.length;
  return textLengthUpTo(heading, bound + 1) <= bound;
}

/** Readability's title check: share of the heading's words that also appear in the title. */
export function similar(title: string, heading: string): boolean {
  if (!title || !heading) return false;
  const a = new Set(title.toLowerCase().split(/\W+/).filter(Boolean));
  const b = heading.toLowerCase().split(/\W+/).filter(Boolean);
  if (b.length === 0) return false;
  const unique = b.filter((t) => !a.has(t));
  return 1 - unique.join(' ').length / b.join(' ').length > 0.75;
}

function hasAncestorTag(el: ElementNode, tag: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.tag === tag) return true;
  return false;
}

// Memoised: the check runs for every wrapper on the way down; a deep chain of wrappers
// would make it quadratic.
function isWithoutContent(el: ElementNode): boolean {
  const known = el.memo?.contentless;
  if (known !== undefined) return known;
  let result = true;
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.text.trim()) result = false;
    } else if (child.tag !== 'br' && child.tag !== 'hr') {
      if (MEDIA.has(child.tag) || !isWithoutContent(child)) result = false;
    }
    if (!result) break;
  }
  el.memo = { ...el.memo, contentless: result };
  return result;
}

function hasBlockChild(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.type === 'element' && (BLOCK_TAGS.has(child.tag) || hasBlockChild(child))) {
      return true;
    }
  }
  return false;
}

/** Loose text beside block children becomes its own paragraph, so that it gets scored. */
function wrapPhrasingRuns(div: ElementNode): void {
  if (!div.children.some((c) => c.type === 'element' && PHRASING_EXCLUDED.has(c.tag))) return;
  const next: Node[] = [];
  let run: ElementNode | null = null;
  for (const child of div.children) {
    const phrasing =
      child.type === 'text' || (!PHRASING_EXCLUDED.has(child.tag) && !hasBlockChild(child));
    if (phrasing) {
      if (!run) {
        if (child.type === 'text' && !child.text.trim()) {
          next.push(child);
          continue;
        }
        run = createElement('p');
        run.parent = div;
        next.push(run);
      }
      child.parent = run;
      run.children.push(child);
    } else {
      run = null;
      next.push(child);
    }
  }
  div.children = next;
}

/**
 * True when "header" or "menu" are the only unlikely names in `match`. A page's header or
 * menu holds a logo and links, not paragraphs: such a name around a paragraph of prose is a
 * CMS module's ("ratgeber-header-module", a card's header) or a tab strip's (`tab-menu`),
 * and the text is the page's. Other unlikely names (comments, sidebars, footers) keep
 * stripping, since a comment thread is prose too.
 */
function onlyHeaderOrMenu(match: string, unlikely: RegExp): boolean {
  return !unlikely.test(match.replace(/header|menu/gi, ' '));
}

/**
 * Holds a paragraph of ≥ 200 chars with < 25 % links, and is itself under 30 % links: a
 * site header's mega menu holds teaser paragraphs too, among many more links.
 */
function holdsProse(el: ElementNode): boolean {
  const f = figures(el);
  return f.prose && f.links < 0.3 * f.text;
}

interface Figures {
  /** Non-space characters of text, and of text inside links. */
  text: number;
  links: number;
  /** A paragraph of prose somewhere inside. */
  prose: boolean;
}

/** Memoised bottom-up: wrappers named "header" nest, and each is asked. */
function figures(el: ElementNode): Figures {
  const known = el.memo?.figures;
  if (known) return known;
  const result: Figures = { text: 0, links: 0, prose: false };
  for (const child of el.children) {
    if (child.type === 'text') {
      result.text += nonSpace(child.text);
      continue;
    }
    const f = figures(child);
    result.text += f.text;
    result.links += child.tag === 'a' ? f.text : f.links;
    if (f.prose) result.prose = true;
    else if (child.tag === 'p' && !result.prose) {
      const length = textLength(child);
      result.prose = length >= 200 && linkDensity(child, length) < 0.25;
    }
  }
  el.memo = { ...el.memo, figures: result };
  return result;
}

function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 32) n++;
  return n;
}

/** A list item holding this much text (characters) is a sentence or more, not a label. */
const PROSE_ITEM = 100;
/** Past this share of its text in links, an item is a link with a blurb, not prose. */
const PROSE_ITEM_LINKS = 0.3;

/** A list item written as prose (a step, an answer's point): no blocks, long, few links. */
function isProseItem(el: ElementNode): boolean {
  if (hasBlockChild(el) || textLengthUpTo(el, PROSE_ITEM) < PROSE_ITEM) return false;
  return linkDensity(el) < PROSE_ITEM_LINKS;
}
