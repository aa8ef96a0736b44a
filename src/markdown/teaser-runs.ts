/**
 * Teasers inside an extracted article: the blog roll or "more ideas" cards a template sets
 * after the story, each a heading that is one link to another page over a line of blurb.
 * Told by shape alone (3 or more sibling blocks of one shape, repeated-items.ts's shapeOf),
 * so it holds in any language. A story whose sections are headed by links (a listicle's
 * products) says more than a blurb under each and is left alone, and so are such cards
 * when all of them together hold much of the article (a hub's or a listing's items). On
 * WCXB this took 0495's blog roll and 0045's course cards; without the share over all
 * cards (each run judged alone) listings and a documentation hub lost their items.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { textLength, textLengthUpTo } from './measure.js';
import { MIN_ITEMS, shapeOf } from './repeated-items.js';

/** A teaser holds at most this many characters: a title and a line or two of blurb. */
const TEASER = 400;
/** All teasers together holding more than this share of the article are its items. */
const MOST = 0.3;
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/** Removes, in place, the runs of teasers of `article`, and a heading right above a run. */
export function dropTeaserRuns(article: ElementNode): void {
  const total = textLength(article);
  if (total === 0) return;
  const doomed: ElementNode[] = [];
  let teaserText = 0;
  const walk = (el: ElementNode): void => {
    const groups = new Map<string, ElementNode[]>();
    let elements = 0;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      elements++;
      const key = shapeOf(child);
      if (key === null) continue;
      const group = groups.get(key);
      if (group) group.push(child);
      else groups.set(key, [child]);
    }
    const gone = new Set<ElementNode>();
    for (const group of groups.values()) {
      if (group.length < MIN_ITEMS || !group.every(isTeaser)) continue;
      teaserText += group.reduce((sum, item) => sum + textLength(item), 0);
      for (const item of group) gone.add(item);
    }
    if (gone.size > 0) {
      for (const item of gone) doomed.push(item);
      // the run was the whole block: the heading set right above it introduced it
      if (gone.size === elements) {
        const heading = previousElement(el);
        if (heading && HEADINGS.has(heading.tag)) doomed.push(heading);
      }
    }
    for (const child of el.children) {
      if (child.type === 'element' && !gone.has(child)) walk(child);
    }
  };
  walk(article);
  // all the teasers together holding much of the article are its items (a listing, a hub)
  if (teaserText <= total * MOST) removeNodes(doomed);
}

/** A short block headed by a heading that is wholly one link to another page. */
function isTeaser(item: ElementNode): boolean {
  if (textLengthUpTo(item, TEASER + 1) > TEASER) return false;
  const heading = firstHeading(item);
  if (!heading) return false;
  const length = textLength(heading);
  if (length === 0) return false;
  const links = heading.children.filter(
    (c): c is ElementNode => c.type === 'element' && c.tag === 'a',
  );
  if (links.length !== 1) return false;
  const href = links[0]?.attrs.href ?? '';
  return href !== '' && !href.startsWith('#') && textLength(links[0] as ElementNode) === length;
}

/** The first heading in a block of at most TEASER characters (a small walk). */
function firstHeading(el: ElementNode): ElementNode | null {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (HEADINGS.has(child.tag)) return child;
    const found = firstHeading(child);
    if (found) return found;
  }
  return null;
}

function previousElement(el: ElementNode): ElementNode | null {
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) - 1; i >= 0; i--) {
    const c = siblings[i];
    if (c?.type === 'element') return c;
    if (c?.text.trim()) return null;
  }
  return null;
}
