/**
 * The page's headline as the first line of the extracted content. Extraction drops the
 * heading that repeats the title (it sits outside the article's text block on most
 * templates), and edge trimming drops a heading that a site's navigation also names (a docs
 * page listed in its own sidebar), but a reader of the Markdown needs to know what it is
 * about: the headline is put first as `# ...`, once, whatever the extraction kept.
 *
 * The headline is the page's `<h1>` (the first one that says what the title or og:title
 * says, else the first one that is not the site's logo), else og:title or `<title>` without
 * the site's name.
 */
import { createElement, descendants, type ElementNode, findFirst, removeNodes } from './dom.js';
import { innerText, textLength, textLengthUpTo } from './measure.js';
import { similar } from './scorable.js';
import { squashName } from './site-labels.js';

// not ':' nor '/': those split headlines ("Review: the phone"), rarely a site's name off them
const SEPARATOR = /\s+[|\-–—·•»]+\s+/;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A longer "heading" is a page that wraps its text in an h1, not a headline. */
const MAX_HEADLINE = 300;
/** Of the longer text, the share the shorter must be to say the same by holding its words. */
const MIN_SHARE = 0.5;
/** An h1 this many times longer than the headline is not a repeat of it. */
const REPEAT_FACTOR = 4;
/** Blocks at the start of the content looked at for a repeat of the headline. */
const LEADING_BLOCKS = 3;

/** What the page says its title is, from its head: `<title>`, og:title and the site's names. */
export interface PageTitles {
  title: string;
  ogTitle: string;
  /** Squashed (squashName): og:site_name and the canonical host's name. */
  siteNames: readonly string[];
}

/**
 * Found before extraction, on the page as it was parsed; '' when the page has none. An h1
 * that names the site (its og:site_name or host, a link to the home page, a title's part
 * after the first) is the logo, not the headline.
 */
export function findHeadline(body: ElementNode, titles: PageTitles): string {
  const siteNames = [...titles.siteNames];
  const headings = pageHeadings(body).filter((h) => !isSiteName(h, siteNames));
  const named = [titles.ogTitle, titles.title].filter(Boolean);
  const titled = named.map(titleParts);
  const says = (h: string) =>
    named.some((t) => sameHeadline(t, h)) || titled.some((p) => sameHeadline(p[0] ?? '', h));
  const matching = headings.find(says);
  if (matching) return matching;
  const later = (h: string) =>
    titled.some((parts) => parts.slice(1).some((p) => sameHeadline(p, h)));
  for (const h of headings) if (later(h)) siteNames.push(squashName(h));
  const other = headings.find((h) => !isSiteName(h, siteNames));
  if (other) return other;
  for (const parts of titled) {
    const cleaned = withoutSiteName(parts, siteNames);
    if (cleaned) return cleaned;
  }
  return '';
}

/** The texts of the body's h1s, except those in navigation or a footer and home links. */
function pageHeadings(body: ElementNode): string[] {
  const out: string[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'nav' || child.tag === 'footer' || child.attrs.role === 'navigation') {
        continue;
      }
      if (child.tag === 'h1') {
        const text = innerText(child);
        if (text && text.length <= MAX_HEADLINE && !isHomeLink(child)) out.push(text);
      } else walk(child);
    }
  };
  walk(body);
  return out;
}

/** A heading that is all one link to the site's front page: the logo. */
function isHomeLink(h1: ElementNode): boolean {
  const links = descendants(h1).filter((el) => el.tag === 'a');
  if (links.length !== 1) return false;
  const link = links[0] as ElementNode;
  if (innerText(link) !== innerText(h1)) return false;
  try {
    const url = new URL(link.attrs.href ?? '', 'http://page.invalid/some/path');
    return url.pathname === '/' && url.search === '';
  } catch {
    return false;
  }
}

function isSiteName(text: string, siteNames: readonly string[]): boolean {
  const squashed = squashName(text);
  return squashed.length === 0 || siteNames.includes(squashed);
}

function titleParts(title: string): string[] {
  return title
    .split(SEPARATOR)
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * The title without the site's name: the parts around separators that do not name the site
 * (og:site_name, the host), else the longest part (the site's name is usually the shorter).
 */
function withoutSiteName(parts: readonly string[], siteNames: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  const kept = parts.filter((p) => !isSiteName(p, siteNames));
  if (kept.length === 1) return kept[0] as string;
  return (kept.length > 0 ? kept : parts).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/**
 * One says the other: Readability's word test, or one holds the other's words in order and
 * is not much longer (a title that holds a logo's two words does not say the same).
 */
function sameHeadline(a: string, b: string): boolean {
  if (!a || !b) return false;
  const na = normalise(a);
  const nb = normalise(b);
  if (!na || !nb) return false;
  const [short, long] = na.length <= nb.length ? [na, nb] : [nb, na];
  return (long.includes(short) && short.length >= long.length * MIN_SHARE) || similar(a, b);
}

const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Puts `headline` as an h1 at the start of `article` (unless it holds no text), and takes out its repeats: every h1
 * that says the same, and a heading or paragraph among the first blocks that says it.
 */
export function prependHeadline(article: ElementNode, headline: string): void {
  // a page whose text a script writes has nothing under its headline: it stays empty
  if (!headline || textLength(article) === 0) return;
  const key = normalise(headline);
  // a far longer h1 does not say it: counted up to that bound only, as h1s nested in h1s
  // would each read all the text below them
  const bound = REPEAT_FACTOR * headline.length;
  const repeats = descendants(article).filter(
    (el) =>
      el.tag === 'h1' && textLengthUpTo(el, bound + 1) <= bound && normalise(innerText(el)) === key,
  );
  for (const block of leadingBlocks(article)) {
    // both ways: "The bridge vote" heads its section under the headline "The bridge"
    const text = innerText(block);
    const same = normalise(text) === key || (similar(headline, text) && similar(text, headline));
    if (same && !repeats.includes(block)) repeats.push(block);
  }
  removeNodes(repeats);
  const h1 = createElement('h1');
  h1.children = [{ type: 'text', text: headline, parent: h1 }];
  h1.parent = article;
  article.children.unshift(h1);
}

/** The first headings or paragraphs of the article, in order. */
function leadingBlocks(article: ElementNode): ElementNode[] {
  const out: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (out.length >= LEADING_BLOCKS || child.type !== 'element') continue;
      if (HEADINGS.has(child.tag) || child.tag === 'p') {
        if (innerText(child)) out.push(child);
      } else walk(child);
    }
  };
  walk(article);
  return out;
}

/** og:title from the head, '' when absent. */
export function ogTitle(root: ElementNode): string {
  const head = findFirst(root, 'head');
  for (const el of head ? head.children : []) {
    if (el.type !== 'element' || el.tag !== 'meta') continue;
    const key = el.attrs.property ?? el.attrs.name;
    if (key === 'og:title' && el.attrs.content) return el.attrs.content.replace(/\s+/g, ' ').trim();
  }
  return '';
}
