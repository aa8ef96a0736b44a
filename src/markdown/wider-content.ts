/**
 * What the content grows to beyond the block the scorer chose, in order: the thread's posts
 * around it (thread-posts.ts), or the list it is an item of (list-region.ts); then the page's
 * region (page-region.ts), read as a list when its items hold most of it (region-items.ts);
 * then a collection's product grid (product-grid.ts); and, on a page with no region, the
 * prose sections beside it (page-sections.ts). Each is taken only when it holds enough more
 * text than what it replaces; each is a trimmed copy, the page's tree is left as it was.
 */

import { restoreCardParts } from './card-facts.js';
import { guideAfter } from './category-guide.js';
import { cloneElement } from './clone.js';
import { gridsTogether } from './collection-grids.js';
import { createElement, type ElementNode, findFirst, type ParsedDocument } from './dom.js';
import { describedItems, listAround } from './list-region.js';
import { keptTextMarks, linkDensity, textFigures, textLength } from './measure.js';
import { sectionsAround } from './page-sections.js';
import { type RegionItems, regionItems } from './region-items.js';
import type { Site } from './site-labels.js';
import { isStoryPage } from './thread-page.js';
import { postsAround } from './thread-posts.js';
import { trimArticle } from './trim-article.js';

/** The grid replaces the extraction when it holds this share of its text... */
const GRID_SHARE = 0.5;
/** ...unless the extraction holds this share of the grid's text. */
const GRID_HELD = 0.5;
/** The page's region (page-region.ts) replaces the extraction when it holds this many times its text. */
const WIDE_REGION = 2;
/** A region that is a list: its items hold this share of its text... */
const LIST_SHARE = 0.75;
/** ...replaces the extraction when it holds this many times its text. */
const LIST_WIDE = 1.25;

export interface Surroundings {
  doc: ParsedDocument;
  /** The page's body after chrome removal (the tree the extraction copied). */
  body: ElementNode;
  site: Site;
  /** The page says it is a product: its reviews are built like posts, and are not its content. */
  product: boolean;
  /** The page's region (page-region.ts), if it has one. */
  region: ElementNode | null;
  /** The page's product grid (product-grid.ts), looked for before chrome removal. */
  grid: ElementNode | null;
  /** All of the page's product grids (product-grid.ts), none on a product page. */
  grids: readonly ElementNode[];
}

/**
 * The page's grids when they are its content instead of `content`: all of them together
 * (collection-grids.ts), or the one grid (widerGrid). Also for content taken on other
 * paths than the scorer's (the hinted container whole, the fallback body), whose trims
 * read the cards as link lists.
 */
export function shownGrids(
  content: ElementNode,
  { body, grid, grids }: Pick<Surroundings, 'body' | 'grid' | 'grids'>,
): ElementNode {
  const together = gridsTogether(content, grids, body);
  // the block of the grids is introduced as one grid is: the category's h1 block goes first
  if (together) return introducedGrid(together, body);
  const chosen = grid && within(grid, body) ? widerGrid(content, grid, body) : content;
  // content holding the grids was trimmed with them: their cards' facts (card-facts.ts) go back
  if (chosen === content) restoreCardParts(content, grid ? [grid, ...grids] : grids, body);
  return chosen;
}

/** The chosen content, or what around it is the content instead. */
export function widerContent(chosen: ElementNode, around: Surroundings): ElementNode {
  const { doc, body, site, product, region } = around;
  const posts = product ? null : threadPosts(chosen, body, doc, site);
  // a thread's posts are its items already: the region is not read as a list around them
  const content = posts
    ? widerRegion(posts, region, site, false)
    : widerRegion(wholeList(chosen, body, site), region, site);
  const gridded = shownGrids(content, around);
  if (gridded !== content) return gridded;
  return region ? content : besideSections(content, body, site);
}

/** The thread's posts around the chosen one (thread-posts.ts), trimmed, when there are. */
function threadPosts(
  chosen: ElementNode,
  body: ElementNode,
  doc: ParsedDocument,
  site: Site,
): ElementNode | null {
  const posts = postsAround(chosen, body);
  // a story's comments are built like its text on some templates, and are not its content
  if (!posts || isStoryPage(doc.root, doc.jsonLd)) return null;
  const copy = createElement('div');
  copy.children = posts.map((post) => cloneElement(post, copy));
  trimArticle(copy, site);
  return textLength(copy) > textLength(chosen) ? copy : null;
}

/** The list the chosen content is an item of (list-region.ts), trimmed, when there is one. */
function wholeList(chosen: ElementNode, body: ElementNode, site: Site): ElementNode {
  const list = listAround(chosen, body);
  if (!list) return chosen;
  const copy = cloneElement(list);
  // the list's items are the content: short lines and item classes that read as chrome
  trimArticle(copy, site, describedItems(copy));
  return textLength(copy) >= 2 * textLength(chosen) ? copy : chosen;
}

/**
 * The page's product grid (product-grid.ts), untrimmed (its items are links, which the
 * article trims read as link lists), when it holds at least as much text as the content
 * kept (the prose the scorer found beside the items: a notice, a filter's help; or a few
 * of the items), or GRID_SHARE of it when the content does not hold the grid (a category's
 * long SEO text beside it). Content longer than the grid that holds it has the items, and
 * the prose around them is the category's. Not on a product page, whose grids are other
 * products.
 */
function widerGrid(content: ElementNode, grid: ElementNode, body: ElementNode): ElementNode {
  const gridLength = textLength(grid);
  const contentLength = textLength(content);
  if (gridLength >= contentLength) return introducedGrid(grid, body);
  if (gridLength < GRID_SHARE * contentLength) return content;
  return sharedText(content, grid) >= GRID_HELD * gridLength ? content : introducedGrid(grid, body);
}

/** A category's intro holds at most this many characters... */
const INTRO_TEXT = 2000;
/** ...under this share of links (a breadcrumb trail or a row of filters is links). */
const INTRO_LINKS = 0.3;

/**
 * A copy of the grid (or of the block of several grids), after its category's heading and
 * intro when the page writes them apart from it: the page's `<h1>` with the widest block
 * around it that does not hold the grid, INTRO_TEXT characters at most, mostly not links.
 * The grid's cards are the items; the name of the category and what it says of them are
 * the page's own words, which most references of collection pages keep.
 */
function introducedGrid(grid: ElementNode, body: ElementNode): ElementNode {
  const copy = cloneElement(grid);
  const h1 = findFirst(body, 'h1');
  if (!h1) return copy;
  const aroundGrid = new Set<ElementNode>();
  for (let p: ElementNode | null = grid; p; p = p.parent) aroundGrid.add(p);
  if (aroundGrid.has(h1)) return copy;
  let intro = h1;
  let holder = h1.parent;
  for (; holder && !aroundGrid.has(holder); holder = holder.parent) {
    if (textLength(holder) > INTRO_TEXT) break;
    intro = holder;
  }
  if (linkDensity(intro) >= INTRO_LINKS) return copy;
  const both = createElement('div');
  both.children = [cloneElement(intro, both), copy];
  copy.parent = both;
  // the category's guide below the grid, in the block that holds the intro and the grid
  if (holder && aroundGrid.has(holder)) {
    const branch = [...aroundGrid].find((p) => p.parent === holder);
    const guide = branch ? guideAfter(holder, branch, textLength(grid)) : [];
    for (const block of guide) both.children.push(cloneElement(block, both));
  }
  return both;
}

/** Copies share their text nodes' measures (measure.ts): the text of `b` that `a` holds. */
function sharedText(a: ElementNode, b: ElementNode): number {
  const { marks } = keptTextMarks(a);
  let shared = 0;
  const count = (el: ElementNode): void => {
    for (const c of el.children) {
      if (c.type === 'element') count(c);
      else {
        const f = textFigures(c);
        if (marks.has(f)) shared += f.length;
      }
    }
  };
  count(b);
  return shared;
}

/** Whether `el` is still in the tree of `root` (chrome removal detaches whole subtrees). */
function within(el: ElementNode, root: ElementNode): boolean {
  for (let p: ElementNode | null = el; p; p = p.parent) if (p === root) return true;
  return false;
}

/** The sibling sections around the content (page-sections.ts), trimmed, when there are. */
function besideSections(chosen: ElementNode, body: ElementNode, site: Site): ElementNode {
  const found = sectionsAround(chosen, body);
  if (!found) return chosen;
  const chosenLength = textLength(chosen);
  const copy = found.added
    ? trimmedApart(found.sections, found.added, site)
    : trimmedTogether(found.sections, site);
  return textLength(copy) >= found.wide * chosenLength ? copy : chosen;
}

/** Copies of `sections` in one block, trimmed as one article. */
function trimmedTogether(sections: readonly ElementNode[], site: Site): ElementNode {
  const copy = createElement('div');
  copy.children = sections.map((section) => cloneElement(section, copy));
  trimArticle(copy, site);
  return copy;
}

/**
 * Copies of `sections`, trimmed apart: each one the extraction left out (`added`) between
 * two it kept alone, so that a named block that is all of its band (a site builder's
 * `cta-banner`) is that band's wrapper, not a small part of a wider article; the others
 * together, as one article. Before the first kept band and after the last, a block named as
 * boilerplate is what it says (an author's box, related posts after a story).
 */
function trimmedApart(
  sections: readonly ElementNode[],
  added: ReadonlySet<ElementNode>,
  site: Site,
): ElementNode {
  let first = sections.length;
  let last = -1;
  sections.forEach((section, i) => {
    if (added.has(section)) return;
    first = Math.min(first, i);
    last = i;
  });
  const held = createElement('div');
  const copies = sections.map((section, i) => {
    if (added.has(section) && i > first && i < last) {
      const alone = createElement('div');
      const copy = cloneElement(section, alone);
      alone.children = [copy];
      trimArticle(alone, site);
      return { copy, in: alone };
    }
    const copy = cloneElement(section, held);
    held.children.push(copy);
    return { copy, in: held };
  });
  trimArticle(held, site);
  const kept = new Set(held.children);
  const out = createElement('div');
  for (const { copy, in: parent } of copies) {
    if (!(parent === held ? kept.has(copy) : parent.children[0] === copy)) continue;
    copy.parent = out;
    out.children.push(copy);
  }
  return out;
}

const NO_ITEMS: RegionItems = { items: new Set(), outerText: 0 };

/**
 * The page's region, trimmed, when it holds WIDE_REGION times the chosen content's text; or,
 * when the region is a list (regionItems: its items hold LIST_SHARE of its text) and `lists`
 * allows, trimmed with its items spared, when it holds LIST_WIDE times that text.
 */
function widerRegion(
  chosen: ElementNode,
  region: ElementNode | null,
  site: Site,
  lists = true,
): ElementNode {
  if (!region) return chosen;
  const chosenLength = textLength(chosen);
  const regionLength = textLength(region);
  if (regionLength < (lists ? LIST_WIDE : WIDE_REGION) * chosenLength) return chosen;
  const copy = cloneElement(region);
  const { items, outerText }: RegionItems = lists ? regionItems(copy) : NO_ITEMS;
  if (items.size > 0 && outerText >= LIST_SHARE * regionLength) {
    trimArticle(copy, site, items, true);
    return textLength(copy) >= LIST_WIDE * chosenLength ? copy : chosen;
  }
  if (regionLength < WIDE_REGION * chosenLength) return chosen;
  trimArticle(copy, site);
  return textLength(copy) >= WIDE_REGION * chosenLength ? copy : chosen;
}
