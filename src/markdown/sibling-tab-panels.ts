/**
 * A product page's tab set written without ARIA: sibling panels of one tag and class, one
 * shown and the others hidden inline (`style="display:none"`, the `hidden` attribute) until
 * a reader clicks a tab whose link is only a script's. Shops put the specifications and
 * details there (a retailer's Overview / Specs / Reviews); WCXB's references of product
 * pages hold them. product-blocks.ts opens the panels that ARIA names; these are told by
 * their shape alone: siblings that share a tag and a class list, at least one of them
 * shown. A carousel's slides and a variant's other prices are the same shape, so a hidden
 * panel opens only when it holds text of its own: a sentence's worth, not mostly links.
 */
import { type ElementNode, forEachSiblingSet } from './dom.js';
import { hiddenInline, withoutInlineHiding } from './hidden-panels.js';
import { linkDensity, textLength } from './measure.js';

/** A hidden sibling panel opens with at least this much text (characters). */
const PANEL_TEXT = 150;
/** ...and at most this share of it in links (a slide of product cards is links). */
const PANEL_LINKS = 0.5;
/** Siblings looked at in one parent: a tab set has a handful, a long list is not one. */
const MAX_PANELS = 12;

/** Opens, in place, the hidden panels of `body`'s script-driven tab sets. */
export function showTabPanels(body: ElementNode): void {
  forEachSiblingSet(body, MAX_PANELS, openSiblings);
}

/** Opens the hidden ones of `kids` that share the tag and class of a shown sibling. */
function openSiblings(kids: readonly ElementNode[]): void {
  const shown = new Set<string>();
  for (const kid of kids) if (!hiddenInline(kid) && kid.attrs.class) shown.add(key(kid));
  if (shown.size === 0) return;
  for (const kid of kids) {
    if (!hiddenInline(kid) || !shown.has(key(kid))) continue;
    const length = textLength(kid);
    if (length < PANEL_TEXT || linkDensity(kid, length) > PANEL_LINKS) continue;
    kid.attrs = withoutInlineHiding(kid.attrs);
  }
}

const key = (el: ElementNode) => `${el.tag} ${(el.attrs.class ?? '').trim()}`;
