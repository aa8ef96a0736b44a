/**
 * The page's headline as the first heading of the extracted content. Extraction drops the
 * heading that repeats the title (it sits outside the article's text block on most
 * templates), but a reader of the Markdown needs to know what it is about: the headline is
 * put back as `# ...` unless the content already starts with it.
 *
 * The headline is the page's first `<h1>` that matches the `<title>` (the title usually
 * adds the site's name), else the `<title>` itself without the site name after a separator.
 */
import { createElement, type ElementNode, findFirst } from './dom.js';
import { innerText } from './measure.js';
import { similar } from './scorable.js';

const SEPARATOR = /\s+[|\-–—:·•»]+\s+/;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Found before extraction, on the page as it was parsed; '' when the page has neither. */
export function findHeadline(body: ElementNode, title: string): string {
  const h1 = findFirst(body, 'h1');
  const heading = h1 ? innerText(h1) : '';
  const parts = title.split(SEPARATOR).map((p) => p.trim());
  // the site's name is the shorter side of the separator
  const fromTitle = parts.reduce((a, b) => (b.length > a.length ? b : a), '');
  if (heading && (!title || sameHeadline(title, heading) || sameHeadline(fromTitle, heading))) {
    return heading;
  }
  return fromTitle;
}

/** One says the other: Readability's word test, or one holds the other's words in order. */
function sameHeadline(a: string, b: string): boolean {
  if (!a || !b) return false;
  const na = normalise(a);
  const nb = normalise(b);
  return na.includes(nb) || nb.includes(na) || similar(a, b);
}

const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Puts `headline` as an h1 at the start of `article` unless its first text already says it. */
export function prependHeadline(article: ElementNode, headline: string): void {
  if (!headline) return;
  const first = firstBlockText(article);
  if (first && sameHeadline(headline, first)) return;
  const h1 = createElement('h1');
  h1.children = [{ type: 'text', text: headline, parent: h1 }];
  h1.parent = article;
  article.children.unshift(h1);
}

/** The text of the article's first heading or paragraph-like block. */
function firstBlockText(el: ElementNode): string {
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.text.trim()) return innerText(el);
      continue;
    }
    if (HEADINGS.has(child.tag) || child.tag === 'p') return innerText(child);
    const inner = firstBlockText(child);
    if (inner) return inner;
  }
  return '';
}
