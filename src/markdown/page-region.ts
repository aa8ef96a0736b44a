/**
 * The page's content region: its `<main>` (or `role="main"`). On structured pages (a
 * listing, a forum thread, a documentation page, a service page) the content is many
 * sibling blocks (items, posts, sections with their own headings and code), and the
 * Readability-style scorer keeps the best one of them. When the region holds several times
 * the text the extraction kept, the extraction took a part of a page whose content is the
 * whole region.
 *
 * Not on a page that says it is an article (`og:type` article): there the region adds the
 * comments, teasers and notices around the story. Nor from the body when the page names no
 * region: without the page's word, the body's blocks beside the text are its chrome. Both
 * limits measured on the shared corpora split in two halves by a hash of the page id
 * (BENCHMARKS.md, issue 28): without them the region cost articles 0.016 and segments 0.008.
 */
import { type ElementNode, findFirst } from './dom.js';
import { textLength } from './measure.js';

/** A `<main>` with less text than this is a shell (a script fills it), not the region. */
const MIN_REGION = 200;

/**
 * The region of `body` (chrome already removed), or null when there is none. Not a copy:
 * extraction works on copies and leaves it as it is; copy it (cloneElement) before trimming.
 */
export function pageRegion(root: ElementNode, body: ElementNode): ElementNode | null {
  if (saysArticle(root)) return null;
  const main = findMain(body);
  return main && textLength(main) >= MIN_REGION ? main : null;
}

function findMain(el: ElementNode): ElementNode | null {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'main' || child.attrs.role === 'main') return child;
    const found = findMain(child);
    if (found) return found;
  }
  return null;
}

/** The page says it is an article (`og:type` article). */
export function saysArticle(root: ElementNode): boolean {
  const head = findFirst(root, 'head');
  for (const el of head ? head.children : []) {
    if (el.type !== 'element' || el.tag !== 'meta') continue;
    if ((el.attrs.property ?? el.attrs.name) !== 'og:type') continue;
    if ((el.attrs.content ?? '').trim().toLowerCase() === 'article') return true;
  }
  return false;
}
