/**
 * includeTags / excludeTags: CSS selectors (css-select) applied to the page before anything
 * is converted or extracted, as Firecrawl does. Blank selectors are ignored (Firecrawl trims
 * them away). The door refuses an invalid selector with assertSelectors before the scrape;
 * here, in the worker, an invalid one simply matches nothing.
 */
import { compile } from 'css-select';
import { DomUtils } from 'htmlparser2';
import { findElement, type PageElement, type PageTree } from './page-tree.js';

type Test = (el: PageElement) => boolean;

function compileOne(selector: string): Test {
  return compile<PageElement, PageElement>(selector) as Test;
}

/**
 * Why the first unusable selector of the list is refused (for a 400 before the scrape), or
 * null when all of them can be used.
 */
export function assertSelectors(selectors: readonly string[]): string | null {
  for (const selector of selectors) {
    if (selector.trim() === '') continue;
    try {
      compileOne(selector.trim());
    } catch (error) {
      return `"${selector}" is not a valid CSS selector (${(error as Error).message})`;
    }
  }
  return null;
}

/** One test matching any of the selectors; null for none (an invalid one matches nothing). */
function anyOf(selectors: readonly string[]): Test | null {
  const tests: Test[] = [];
  for (const selector of selectors) {
    if (selector.trim() === '') continue;
    try {
      tests.push(compileOne(selector.trim()));
    } catch {
      // refused at the door; a stored plan from before that check matches nothing
    }
  }
  if (tests.length === 0) return null;
  return (el) => tests.some((test) => test(el));
}

/**
 * Keeps only the elements matching `include` (when it has a selector), in document order and
 * each once (a match inside another match comes with it), as the body's content; then removes
 * the elements matching `exclude`. The head stays, so the title and `<base>` still count.
 */
export function applySelectors(
  tree: PageTree,
  include: readonly string[],
  exclude: readonly string[],
): void {
  const keep = include.some((s) => s.trim() !== '') ? anyOf(include) : undefined;
  if (keep !== undefined) keepOnly(tree, keep);
  const drop = anyOf(exclude);
  if (drop) for (const el of outermost(tree, drop)) DomUtils.removeElement(el);
}

/** Matches in document order, without those inside another match. */
function outermost(tree: PageTree, test: Test): PageElement[] {
  const found: PageElement[] = [];
  const walk = (nodes: PageElement['children']): void => {
    for (const node of nodes) {
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const el = node as PageElement;
      if (test(el)) found.push(el);
      else walk(el.children);
    }
  };
  walk(tree.children);
  return found;
}

function keepOnly(tree: PageTree, keep: Test | null): void {
  const kept = keep ? outermost(tree, keep) : [];
  for (const el of kept) DomUtils.removeElement(el);
  const container = findElement(tree, 'body') ?? findElement(tree, 'html') ?? tree;
  const head = findElement(tree, 'head');
  // cleared in one go: removing children one by one is quadratic on a wide body
  const stay = container.children.filter((child) => child === head);
  for (const child of container.children) {
    if (child === head) continue;
    child.parent = null;
    child.prev = null;
    child.next = null;
  }
  container.children = stay;
  for (const child of stay) {
    child.prev = null;
    child.next = null;
  }
  for (const el of kept) DomUtils.appendChild(container, el);
}
