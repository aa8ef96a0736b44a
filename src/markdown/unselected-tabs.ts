/**
 * A product page's tab set (ARIA: `role="tab"` toggles naming their panels in
 * `aria-controls`) shows one panel, the selected tab's; the others are hidden by the style
 * sheet or a script even when the markup sends them unhidden (WooCommerce writes every
 * panel open and hides them in CSS). WCXB's references of product pages hold the panel a
 * reader sees and leave the others out (a shop's storage tips and family recipes beside the
 * description, a retailer's "why our staff" tabs), except a specification sheet: a panel
 * holding a table or a definition list is the product's data and stays (a dress's
 * "Additional information" sizes and materials). The selected tab is the one ARIA or its
 * class marks (`aria-selected="true"`, `active`), else the first. Page builders write the
 * tabs without ARIA (linkTabPanels). ARIA and markup only: any language is served.
 */
import { type ElementNode, findFirst, removeNodes } from './dom.js';

/** Class tokens that mark the selected tab, alone or after a kit's prefix (`vc_active`). */
const SELECTED_CLASS = /(?:^|\s)(?:[\w-]*[-_])?(?:active|selected|current)(?:$|\s)/;

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
  const doomed: ElementNode[] = linkTabPanels(body, byId);
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

/**
 * The panels of the tab sets written without ARIA that their unselected tabs name: a list
 * whose items each link to a panel (`href="#id"`), one item or its link marked selected by
 * class (a page builder's `vc_active`), the panels siblings of one tag and class (a
 * table of contents links to sections too, but marks none of its items in the page as
 * sent). Panels holding a specification stay, as an ARIA set's do.
 */
function linkTabPanels(body: ElementNode, byId: ReadonlyMap<string, ElementNode>): ElementNode[] {
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'ul' || child.tag === 'ol') {
        const panels = unselectedLinkPanels(child, byId);
        if (panels.length > 0) {
          doomed.push(...panels);
          continue;
        }
      }
      walk(child);
    }
  };
  walk(body);
  return doomed;
}

function unselectedLinkPanels(
  list: ElementNode,
  byId: ReadonlyMap<string, ElementNode>,
): ElementNode[] {
  const panels: ElementNode[] = [];
  let selected = -1;
  for (const item of list.children) {
    if (item.type !== 'element') continue;
    if (item.tag !== 'li') return [];
    const link = findFirst(item, 'a');
    const href = link?.attrs.href ?? '';
    const panel = href.startsWith('#') ? byId.get(href.slice(1)) : undefined;
    if (!link || !panel) return [];
    if (
      SELECTED_CLASS.test(item.attrs.class ?? '') ||
      SELECTED_CLASS.test(link.attrs.class ?? '')
    ) {
      if (selected >= 0) return [];
      selected = panels.length;
    }
    panels.push(panel);
  }
  if (selected < 0 || panels.length < 2) return [];
  const first = panels[0] as ElementNode;
  const shape = `${first.tag} ${first.attrs.class ?? ''}`;
  for (const panel of panels) {
    if (panel.parent !== first.parent || `${panel.tag} ${panel.attrs.class ?? ''}` !== shape) {
      return [];
    }
  }
  return panels.filter((panel, i) => i !== selected && !holdsSpecification(panel));
}
