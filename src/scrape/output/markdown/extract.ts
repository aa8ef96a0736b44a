/**
 * Main-content extraction: a Readability-style scorer on the light tree. Paragraph-like
 * elements score their ancestors (commas, length); scores are damped by link density;
 * the best candidate and its related siblings form the article, which is then cleaned
 * of link lists, image galleries and form remnants. When a pass finds too little text,
 * it is retried with fewer heuristics, as Readability does.
 */
import { createElement, type ElementNode, type Node } from './dom.js';
import { classWeight, elementChildren, innerText, linkDensity, textLength } from './measure.js';
import { prepareArticle } from './prepare-article.js';

const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
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

export interface ExtractFlags {
  stripUnlikely: boolean;
  weightClasses: boolean;
  cleanConditionally: boolean;
}

/** Extracts the article from `body` (which it mutates). Returns a new container element. */
export function grabArticle(body: ElementNode, title: string, flags: ExtractFlags): ElementNode {
  const scores = new Map<ElementNode, number>();
  const toScore = collectScorable(body, title, flags);

  for (const el of toScore) {
    if (!el.parent) continue;
    const text = innerText(el);
    if (text.length < 25) continue;
    const ancestors = ancestorsOf(el, 5);
    if (ancestors.length === 0) continue;
    const contentScore =
      1 + text.split(/[,，、]/).length - 1 + Math.min(Math.floor(text.length / 100), 3);
    ancestors.forEach((ancestor, level) => {
      if (!ancestor.parent) return;
      if (!scores.has(ancestor)) scores.set(ancestor, initialScore(ancestor, flags));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, (scores.get(ancestor) ?? 0) + contentScore / divider);
    });
  }

  const top: ElementNode[] = [];
  for (const [el, score] of scores) {
    const damped = score * (1 - linkDensity(el));
    scores.set(el, damped);
    top.push(el);
  }
  top.sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0));
  const candidates = top.slice(0, 5);

  let topCandidate = candidates[0];
  if (!topCandidate || topCandidate.tag === 'body') {
    const container = createElement('div');
    container.children = [...body.children];
    for (const c of container.children) c.parent = container;
    body.children = [container];
    container.parent = body;
    prepareArticle(container, flags);
    return container;
  }
  topCandidate = promoteCandidate(topCandidate, candidates, scores, flags);

  const article = createElement('div');
  const parent = topCandidate.parent;
  const topScore = scores.get(topCandidate) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const siblings = parent ? elementChildren(parent) : [topCandidate];
  for (const sibling of siblings) {
    let append = sibling === topCandidate;
    if (!append) {
      let bonus = 0;
      const cls = sibling.attrs.class ?? '';
      if (cls && cls === (topCandidate.attrs.class ?? '')) bonus += topScore * 0.2;
      const score = scores.get(sibling);
      if (score !== undefined && score + bonus >= threshold) append = true;
      else if (sibling.tag === 'p') {
        const text = innerText(sibling);
        const density = linkDensity(sibling, text.length);
        if (text.length > 80 && density < 0.25) append = true;
        else if (text.length > 0 && text.length < 80 && density === 0 && /\.( |$)/.test(text)) {
          append = true;
        }
      }
    }
    if (append) article.children.push(sibling);
  }
  if (parent) {
    const moved = new Set<Node>(article.children);
    parent.children = parent.children.filter((c) => !moved.has(c));
  }
  for (const child of article.children) child.parent = article;
  prepareArticle(article, flags);
  return article;
}

function initialScore(el: ElementNode, flags: ExtractFlags): number {
  let score = 0;
  switch (el.tag) {
    case 'div':
      score = 5;
      break;
    case 'pre':
    case 'td':
    case 'blockquote':
      score = 3;
      break;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      score = -3;
      break;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      score = -5;
      break;
  }
  return score + (flags.weightClasses ? classWeight(el) : 0);
}

function ancestorsOf(el: ElementNode, maxDepth: number): ElementNode[] {
  const out: ElementNode[] = [];
  for (let p = el.parent; p && out.length < maxDepth; p = p.parent) out.push(p);
  return out;
}

/** Readability's climb: a shared ancestor of several strong candidates, or a better parent. */
function promoteCandidate(
  first: ElementNode,
  candidates: ElementNode[],
  scores: Map<ElementNode, number>,
  flags: ExtractFlags,
): ElementNode {
  let top = first;
  const topScore = scores.get(top) ?? 0;
  const alternatives = candidates
    .slice(1)
    .filter((c) => (scores.get(c) ?? 0) / topScore >= 0.75)
    .map((c) => new Set(ancestorsOf(c, 1000)));
  if (alternatives.length >= 3) {
    for (let p = top.parent; p && p.tag !== 'body'; p = p.parent) {
      if (alternatives.filter((set) => set.has(p)).length >= 3) {
        top = p;
        break;
      }
    }
  }
  if (!scores.has(top)) scores.set(top, initialScore(top, flags));
  let lastScore = scores.get(top) ?? 0;
  const threshold = lastScore / 3;
  for (let p = top.parent; p && p.tag !== 'body'; p = p.parent) {
    const score = scores.get(p);
    if (score === undefined) continue;
    if (score < threshold) break;
    if (score > lastScore) {
      top = p;
      break;
    }
    lastScore = score;
  }
  while (top.parent && top.parent.tag !== 'body' && elementChildren(top.parent).length === 1) {
    top = top.parent;
  }
  return top;
}

/**
 * Walks the tree removing unlikely candidates, bylines, the title heading and empty
 * wrappers; turns text-only divs into paragraphs; returns the elements to score.
 */
function collectScorable(body: ElementNode, title: string, flags: ExtractFlags): ElementNode[] {
  const out: ElementNode[] = [];
  let bylineFound = false;
  let titleRemoved = false;
  // returns false when `el` is to be removed; parents drop such children in one pass
  const visit = (el: ElementNode): boolean => {
    const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
    if (!bylineFound && el !== body && isByline(el, match)) {
      bylineFound = true;
      return false;
    }
    if (!titleRemoved && (el.tag === 'h1' || el.tag === 'h2') && similar(title, innerText(el))) {
      titleRemoved = true;
      return false;
    }
    if (flags.stripUnlikely && el.tag !== 'body' && el.tag !== 'a') {
      if (
        UNLIKELY.test(match) &&
        !MAYBE_CANDIDATE.test(match) &&
        !hasAncestorTag(el, 'table') &&
        !hasAncestorTag(el, 'code')
      ) {
        return false;
      }
      if (el.attrs.role && UNLIKELY_ROLES.has(el.attrs.role)) {
        return false;
      }
    }
    if (EMPTY_REMOVABLE.has(el.tag) && isWithoutContent(el)) {
      return false;
    }
    if (TAGS_TO_SCORE.has(el.tag)) out.push(el);
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
  const length = textLength(el);
  return length > 0 && length < 100;
}

/** Readability's title check: share of the heading's words that also appear in the title. */
function similar(title: string, heading: string): boolean {
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
