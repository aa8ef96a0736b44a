/**
 * A product page's tab set (ARIA: `role="tab"` toggles naming their panels in
 * `aria-controls`) shows one panel, the selected tab's; the others are hidden by the style
 * sheet or a script even when the markup sends them unhidden (WooCommerce writes every
 * panel open and hides them in CSS). WCXB's references of product pages hold the panel a
 * reader sees and leave the others out (a shop's storage tips and family recipes beside the
 * description, a retailer's "why our staff" tabs), except a specification sheet: a panel
 * holding a table or a definition list is the product's data and stays (a dress's
 * "Additional information" sizes and materials). The selected tab is the one ARIA or its
 * class marks (`aria-selected="true"`, `active`), else the first. ARIA and markup only:
 * any language is served.
 */
import { type ElementNode, findFirst, removeNodes } from './dom.js';

/** Class tokens that mark the selected tab. */
const SELECTED_CLASS = /(?:^|\s)(?:active|is-active|selected|is-selected|current)(?:$|\s)/;

/** Removes, in place, the panels of `body`'s tab sets that their unselected tabs name. */
export function dropUnselectedTabs(body: ElementNode): void {
  // tabs grouped by their tablist, or without one by the element that holds them
  const sets = new Map<ElementNode, ElementNode[]>();
  const byId = new Map<string, ElementNode>();
  const walk = (el: ElementNode, list: ElementNode | null): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const a = child.attrs;
      if (a.id !== undefined) byId.set(a.id, child);
      if (a.role === 'tab' && a['aria-controls']) {
        const set = list ?? el;
        const tabs = sets.get(set);
        if (tabs) tabs.push(child);
        else sets.set(set, [child]);
      }
      walk(child, a.role === 'tablist' ? child : list);
    }
  };
  walk(body, null);
  const doomed: ElementNode[] = [];
  for (const tabs of sets.values()) {
    if (tabs.length < 2) continue;
    const selected = Math.max(0, tabs.findIndex(isSelected));
    tabs.forEach((tab, i) => {
      if (i === selected) return;
      for (const id of (tab.attrs['aria-controls'] ?? '').split(/\s+/)) {
        const panel = byId.get(id);
        if (panel && !holdsSpecification(panel)) doomed.push(panel);
      }
    });
  }
  removeNodes(doomed);
}

function isSelected(tab: ElementNode): boolean {
  return tab.attrs['aria-selected'] === 'true' || SELECTED_CLASS.test(tab.attrs.class ?? '');
}

const holdsSpecification = (panel: ElementNode) =>
  findFirst(panel, 'table') !== null || findFirst(panel, 'dl') !== null;
