/**
 * Tooltips on a product page: the help a shop shows while the pointer rests on a label's
 * icon ("Open-back designs leak sound…" beside "Cup style: Open-back"). They explain the
 * shop's vocabulary, not the product, and are the same on every product of the shop;
 * WCXB's references keep the label and its value, not the help. A tooltip is told by ARIA
 * (`role="tooltip"`) or by the name the UI kits give its box (`tooltip`, `tool-tip`,
 * `tooltip__content`); the trigger (`has-tooltip`, `tooltip-trigger`) and the label stay.
 */
import { type ElementNode, outermost, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

/** A class token naming a tooltip's box or its text, not its trigger. */
const TOOLTIP_CLASS =
  /^tool-?tip(?:s)?(?:(?:__|-|_)(?:content|text|body|inner|popup|panel|box))?$/i;
/** A tooltip holds a line or two of help; a longer block named so is a template's panel. */
const MAX_TOOLTIP = 600;

/** Removes, in place, the tooltips under `root`. */
export function dropTooltips(root: ElementNode): void {
  removeNodes(
    outermost(root, (el) => isTooltip(el) && textLengthUpTo(el, MAX_TOOLTIP + 1) <= MAX_TOOLTIP),
  );
}

function isTooltip(el: ElementNode): boolean {
  if (el.attrs.role === 'tooltip') return true;
  const cls = el.attrs.class;
  if (cls === undefined) return false;
  for (const token of cls.split(/\s+/)) if (TOOLTIP_CLASS.test(token)) return true;
  return false;
}
