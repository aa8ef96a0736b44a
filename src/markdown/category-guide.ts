/**
 * A category's guide after its product grid: a collection page sets its cards between the
 * category's heading and intro (wider-content.ts introducedGrid) and, below them, what it
 * says of the category at length (how to choose, its questions answered, its expert
 * articles). The blocks after the grid in the block that holds both the page's `<h1>` and
 * the grid are the guide when they are prose: mostly not links (a row of related searches,
 * a pager, a footer's menus are links) and with text of their own. A block that carries a
 * copyright sign with its year is the page's foot (a template without `<footer>`): the
 * guide ends before it.
 */
import type { ElementNode } from './dom.js';
import { COPYRIGHT } from './legal-notices.js';
import { innerText, linkDensity, textLength } from './measure.js';

/** A guide's block holds at least this many characters (a lone label is no guide)... */
const GUIDE_TEXT = 100;
/** ...under this share of links. */
const GUIDE_LINKS = 0.3;
/** The guide holds at most this many times the grid's text: the page is the grid's. */
const GUIDE_SHARE = 1;

/**
 * The prose blocks after the branch of `holder` (`branch`, its child) that holds the grid,
 * in order, when together they hold at most GUIDE_SHARE of `gridLength`; [] otherwise.
 */
export function guideAfter(
  holder: ElementNode,
  branch: ElementNode,
  gridLength: number,
): ElementNode[] {
  const at = holder.children.indexOf(branch);
  if (at < 0) return [];
  const guide: ElementNode[] = [];
  let text = 0;
  for (const child of holder.children.slice(at + 1)) {
    if (child.type !== 'element') continue;
    const length = textLength(child);
    if (COPYRIGHT.test(innerText(child))) break;
    if (length < GUIDE_TEXT || linkDensity(child, length) >= GUIDE_LINKS) continue;
    guide.push(child);
    text += length;
  }
  return text <= GUIDE_SHARE * gridLength ? guide : [];
}
