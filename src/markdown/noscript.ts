/**
 * `<noscript>` as a client without scripts sees it. A fetched page (render=false) is read
 * without running its scripts, so a block the page renders from a script template (Blogger
 * puts each post body in `<script type="text/template">` and a copy in `<noscript>`) exists
 * only as the noscript copy. Such a copy is long text standing where nothing else is: its
 * parent holds little text beside it. Everything else a noscript holds (tracking pixels,
 * "enable JavaScript" notes, lazy-load image fallbacks) is dropped as before; on a rendered
 * DOM the script has filled the block, so the copy stands beside its own text and goes too.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { textLength } from './measure.js';

/** A noscript copy of a text block holds at least this much text. */
const LONG_TEXT = 200;

/** Turns the noscript copies of script-rendered text into divs; removes all other noscripts. */
export function resolveNoscript(root: ElementNode): void {
  const found: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'noscript') found.push(child);
      else walk(child);
    }
  };
  walk(root);
  if (found.length === 0) return;
  const doomed: ElementNode[] = [];
  // pages put dozens of noscript pixels in one parent (the body): measure each parent once;
  // nothing below changes text, only tags
  const parentLength = new Map<ElementNode, number>();
  const lengthOf = (parent: ElementNode): number => {
    let length = parentLength.get(parent);
    if (length === undefined) {
      length = textLength(parent);
      parentLength.set(parent, length);
    }
    return length;
  };
  for (const el of found) {
    const own = textLength(el);
    // the parent is measured only for a long copy: pixels and notes are most noscripts, and
    // their parent is often the whole body
    const beside = own >= LONG_TEXT && el.parent ? lengthOf(el.parent) - own : 0;
    if (own >= LONG_TEXT && beside < own / 4) el.tag = 'div';
    else doomed.push(el);
  }
  removeNodes(doomed);
}
