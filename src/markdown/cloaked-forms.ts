/**
 * Dialogs a front-end framework renders on a reader's action: a block carrying the
 * framework's cloak (`v-cloak`, Alpine's `x-cloak`: hidden until the script compiles it)
 * and a condition of its own (`v-if`, `v-show`, `x-show`, `x-if`) that holds a form. As
 * sent, the page's style sheet hides it; once the script runs, it shows only while its
 * condition holds, a dialog a reader opens (a "notify me when back in stock" form with its
 * thank-you and error states). A cloaked conditional block without a form stays: templates
 * write a card's per-variant badges and prices so, which are the page's data. Markup only:
 * any language is served.
 */
import { type ElementNode, findFirst, outermost, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

/** A block holding this share of the page's text or more is the page, however it is marked. */
const MOST_OF_PAGE = 0.5;

/**
 * Removes, in place, `body`'s cloaked conditional blocks that hold a form.
 * `pageTextLength`: the body's text length, measured once by the caller.
 */
export function dropCloakedForms(body: ElementNode, pageTextLength: number): void {
  const most = pageTextLength * MOST_OF_PAGE;
  const isDoomed = (el: ElementNode) =>
    isCloakedConditional(el) &&
    (el.tag === 'form' || findFirst(el, 'form') !== null) &&
    textLengthUpTo(el, most) < most;
  removeNodes(outermost(body, isDoomed));
}

function isCloakedConditional(el: ElementNode): boolean {
  const a = el.attrs;
  if (a['v-cloak'] === undefined && a['x-cloak'] === undefined) return false;
  return (
    a['v-if'] !== undefined ||
    a['v-show'] !== undefined ||
    a['x-show'] !== undefined ||
    a['x-if'] !== undefined
  );
}
