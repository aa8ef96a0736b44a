/**
 * Pages whose content a script shows: streaming server rendering (React's `<div hidden>`
 * moved into place by a script once it arrives) and pages that send their modules in
 * `display:none` blocks and reveal them on load. A browser shows that text; read as sent,
 * the page is only its header and menus, and the extraction finds nothing.
 *
 * When the page as sent shows next to nothing and its hidden blocks hold several times
 * that, they are the page: their hidden markers are dropped, so the usual chrome removal and extraction run on
 * what a reader sees. Small hidden blocks (menus, dialogs, tooltips) stay hidden.
 */
import type { ElementNode } from './dom.js';
import { hiddenInline, withoutInlineHiding } from './hidden-panels.js';
import { textLength } from './measure.js';

/**
 * A page that shows this much text (characters) as sent is read as sent: its hidden blocks
 * are tabs, accordions and variants beside content already there (a shop's product page
 * sends its "more like this" rows hidden). The extraction's own bound for "enough text".
 */
const SHOWN_PAGE = 500;
/** The hidden blocks must hold this many times the visible text. */
const HIDDEN_SHARE = 3;
/** ...and at least this much text (characters) together: a page's worth, not a menu. */
const ENOUGH_HIDDEN = 500;
/** A hidden block with less text than this stays hidden (a dialog, a tooltip). */
const SMALL_BLOCK = 200;

/** Shows, in place, the hidden blocks of a page whose content a script shows. */
export function showScriptShownContent(body: ElementNode, pageTextLength: number): void {
  const hidden: { el: ElementNode; length: number }[] = [];
  let hiddenLength = 0;
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (!hiddenInline(child)) {
        walk(child);
        continue;
      }
      const length = textLength(child);
      hiddenLength += length;
      if (length >= SMALL_BLOCK) hidden.push({ el: child, length });
    }
  };
  walk(body);
  const visible = pageTextLength - hiddenLength;
  if (
    visible >= SHOWN_PAGE ||
    hiddenLength < ENOUGH_HIDDEN ||
    hiddenLength < HIDDEN_SHARE * visible
  ) {
    return;
  }
  for (const { el } of hidden) el.attrs = withoutInlineHiding(el.attrs);
}
