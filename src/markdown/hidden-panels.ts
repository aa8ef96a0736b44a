/**
 * Blocks a page hides until a reader acts, and the toggles that name them: what the
 * modules that show such blocks (script-shown.ts, tab-panels.ts, sibling-tab-panels.ts,
 * product-blocks.ts) share.
 *
 * Attributes objects are shared by copies of the tree (clone.ts), so a block is shown by
 * giving it a changed copy of its attributes, never by editing them in place.
 */
import type { ElementNode } from './dom.js';

const DISPLAY_NONE = /display\s*:\s*none/i;

/**
 * Hidden the way a script later undoes it: the `hidden` attribute or `display:none` inline
 * (not a class, not `aria-hidden`, which hides from screen readers only).
 */
export function hiddenInline(el: ElementNode): boolean {
  const a = el.attrs;
  return a.hidden !== undefined || (a.style !== undefined && DISPLAY_NONE.test(a.style));
}

/** A copy of `attrs` without the inline hiding (`hidden`, `display:none`). */
export function withoutInlineHiding(
  attrs: Readonly<Record<string, string>>,
): Record<string, string> {
  const copy = { ...attrs };
  delete copy.hidden;
  if (copy.style) copy.style = copy.style.replace(/display\s*:\s*none\s*;?/gi, '');
  return copy;
}

/**
 * The elements of `body` that `isPanel` accepts and whose id a toggle (`isToggle`) names in
 * its `aria-controls`, in document order; one walk.
 */
export function controlledPanels(
  body: ElementNode,
  isToggle: (attrs: Readonly<Record<string, string>>) => boolean,
  isPanel: (el: ElementNode) => boolean,
): ElementNode[] {
  const controlled = new Set<string>();
  const panels: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const a = child.attrs;
      if (a['aria-controls'] && isToggle(a)) {
        for (const id of a['aria-controls'].split(/\s+/)) if (id) controlled.add(id);
      }
      if (a.id !== undefined && isPanel(child)) panels.push(child);
      walk(child);
    }
  };
  walk(body);
  return panels.filter((panel) => controlled.has(panel.attrs.id ?? ''));
}
