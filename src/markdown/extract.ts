/**
 * Main-content extraction: a Readability-style scorer on the light tree. Paragraph-like
 * elements score their ancestors (commas, length); scores are damped by link density;
 * the best candidate and its related siblings form the article, which is then cleaned
 * of link lists, image galleries and form remnants. When a pass finds too little text,
 * it is retried with fewer heuristics, as Readability does.
 */
import { createElement, type ElementNode, type Node } from './dom.js';
import { classWeight, elementChildren, innerText } from './measure.js';
import { prepareArticle } from './prepare-article.js';
import { collectScorable, type ExtractFlags } from './scorable.js';
import { TreeStats } from './tree-stats.js';

export type { ExtractFlags } from './scorable.js';

/** Commas one element may score (Readability counts them all). */
const MAX_COMMAS = 25;

/** Extracts the article from `body` (which it mutates). Returns a new container element. */
export function grabArticle(body: ElementNode, title: string, flags: ExtractFlags): ElementNode {
  const scores = new Map<ElementNode, number>();
  const toScore = collectScorable(body, title, flags);
  // the tree holds still from here until the article is assembled
  const stats = new TreeStats();

  for (const el of toScore) {
    if (!el.parent) continue;
    const text = stats.of(el);
    if (text.length < 25) continue;
    const ancestors = ancestorsOf(el, 5);
    if (ancestors.length === 0) continue;
    // commas count clauses; past a long paragraph's worth they are an inline list (names,
    // keywords, signatories), which must not outweigh the paragraphs of the text
    const contentScore =
      1 + Math.min(text.commas, MAX_COMMAS) + Math.min(Math.floor(text.length / 100), 3);
    ancestors.forEach((ancestor, level) => {
      if (!ancestor.parent) return;
      if (!scores.has(ancestor)) scores.set(ancestor, initialScore(ancestor, flags));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, (scores.get(ancestor) ?? 0) + contentScore / divider);
    });
  }

  const top: ElementNode[] = [];
  for (const [el, score] of scores) {
    const damped = score * (1 - stats.linkDensity(el));
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
  let beforeTop = true;
  for (const sibling of siblings) {
    if (sibling === topCandidate) beforeTop = false;
    let append = sibling === topCandidate;
    if (!append) {
      let bonus = 0;
      const cls = sibling.attrs.class ?? '';
      if (cls && cls === (topCandidate.attrs.class ?? '')) bonus += topScore * 0.2;
      const score = scores.get(sibling);
      if (score !== undefined && score + bonus >= threshold) append = true;
      else if (sibling.tag === 'p' || wrapsOneParagraph(sibling)) {
        const length = stats.of(sibling).length;
        const density = stats.linkDensity(sibling);
        if (length > 80 && density < 0.25) append = true;
        else if (length > 0 && length < 80 && density === 0 && /\.( |$)/.test(innerText(sibling))) {
          append = true;
        }
      } else if (beforeTop && isProseSection(sibling, stats, flags)) append = true;
    }
    if (append) article.children.push(sibling);
  }
  if (parent) {
    const moved = new Set<Node>(article.children);
    parent.children = parent.children.filter((c) => !moved.has(c));
  }
  const earlier = earlierProse(parent, stats, flags);
  if (earlier.length > 0) {
    for (const el of earlier) {
      if (el.parent) el.parent.children = el.parent.children.filter((c) => c !== el);
    }
    article.children = [...earlier, ...article.children];
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
  return score + (flags.weightClasses ? usedClassWeight(el, flags) : 0);
}

/** classWeight(el), noting in `flags.used` when it was not zero. */
function usedClassWeight(el: ElementNode, flags: ExtractFlags): number {
  const weight = classWeight(el, flags.commentsAreContent);
  if (weight !== 0 && flags.used) flags.used.weightClasses = true;
  return weight;
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
 * A div around one paragraph and nothing else (sites wrap each paragraph, or the lead, in a
 * div): Readability reduces it to the paragraph, so it joins the article like one.
 */
function wrapsOneParagraph(el: ElementNode): boolean {
  if (el.tag !== 'div') return false;
  let found = false;
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.text.trim()) return false;
    } else if (child.tag === 'p' && !found) found = true;
    else return false;
  }
  return found;
}

const SECTIONS = new Set(['div', 'section', 'article']);

/**
 * A block before the best one that holds a paragraph of prose (≥ 150 chars, < 25 % links),
 * is not mostly links and not named as chrome: templates put the lead or the intro in a
 * section of its own above the body (a `chapo`, an event's description above its details),
 * deeper than Readability's sibling step looks (it joins paragraphs and high scorers only).
 * Blocks after the text are left to the scores: contact notices, agency signatures and
 * browser warnings sit there, written as prose.
 */
function isProseSection(el: ElementNode, stats: TreeStats, flags: ExtractFlags): boolean {
  if (!SECTIONS.has(el.tag)) return false;
  if (flags.weightClasses && classWeight(el, flags.commentsAreContent) < 0) return false;
  if (stats.linkDensity(el) >= 0.25) return false;
  const hasProse = (node: ElementNode): boolean => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'p') {
        if (stats.of(child).length >= 150 && stats.linkDensity(child) < 0.25) return true;
      } else if (hasProse(child)) return true;
    }
    return false;
  };
  return hasProse(el);
}

/** How many wrappers up from the best block's parent earlier prose sections are looked for. */
const EARLIER_LEVELS = 2;

/**
 * Prose sections (isProseSection) before the wrappers of the best block's parent, up to
 * EARLIER_LEVELS levels, in document order. Templates nest the body a level or two deeper
 * than the lead or abstract above it (a story's lead beside the column that holds the text,
 * a paper's abstract section before the section the scorer chose).
 */
function earlierProse(
  parent: ElementNode | null,
  stats: TreeStats,
  flags: ExtractFlags,
): ElementNode[] {
  const out: ElementNode[] = [];
  let current = parent;
  for (
    let level = 0;
    level < EARLIER_LEVELS && current?.parent && current.tag !== 'body';
    level++
  ) {
    const up: ElementNode = current.parent;
    if (up.tag === 'body' || up.tag === '#root') break;
    const found: ElementNode[] = [];
    for (const sibling of elementChildren(up)) {
      if (sibling === current) break;
      if (isProseSection(sibling, stats, flags)) found.push(sibling);
    }
    out.unshift(...found);
    current = up;
  }
  return out;
}
