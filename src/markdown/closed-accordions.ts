/**
 * A product page's accordion written without ARIA or inline hiding: sibling items, each a
 * title followed by its panel, where the items a reader sees open carry a state class on
 * both the title and the panel (`accordion-title active` over `accordion-content active`)
 * and the collapsed ones carry the same classes without it. The style sheet hides the
 * collapsed panels, so the markup sends them as if shown; WCXB's references of product
 * pages hold the open items (the description, the fit and fabric) and leave the collapsed
 * ones out (the shop's shipping and care boilerplate). Only that shape counts: a tab set
 * whose buttons sit apart from their panels (a `data-tab` nav over its panels), whose
 * unselected panels the references often keep, is not touched, nor an item whose title
 * alone is marked. Markup only: any language is served.
 */
import { type ElementNode, forEachSiblingSet, removeNodes } from './dom.js';

/** Class tokens that mark an open item, alone or after a kit's prefix (`is-open`). */
const STATE_TOKEN = /^(?:[\w-]*[-_])?(?:active|open|opened|expanded|show|shown)$/;
/**
 * Open items of one shape needed: a tab set shows one panel at a time (and its unselected
 * panels, a watch's specifications, are kept by the references), an accordion opened by
 * its author at several items is told from one by that.
 */
const MIN_OPEN = 2;
/** Sibling items looked at in one parent: an accordion has a handful, a long list is not one. */
const MAX_ITEMS = 12;

/** Removes, in place, the collapsed items of `body`'s class-marked accordions. */
export function dropClosedAccordionItems(body: ElementNode): void {
  const doomed: ElementNode[] = [];
  forEachSiblingSet(body, MAX_ITEMS, (kids) => doomed.push(...closedItems(kids)));
  removeNodes(doomed);
}

/** The items of `kids` whose title and panel match an open sibling's without its state. */
function closedItems(kids: readonly ElementNode[]): ElementNode[] {
  const open = new Map<string, number>();
  const unmarked: [ElementNode, string][] = [];
  for (const kid of kids) {
    const pair = titleAndPanel(kid);
    if (!pair) continue;
    const title = stateOf(pair[0]);
    const panel = stateOf(pair[1]);
    if (title.marked && panel.marked) {
      const key = `${title.key}|${panel.key}`;
      open.set(key, (open.get(key) ?? 0) + 1);
    } else if (!title.marked && !panel.marked) unmarked.push([kid, `${title.key}|${panel.key}`]);
  }
  return unmarked.filter(([, key]) => (open.get(key) ?? 0) >= MIN_OPEN).map(([kid]) => kid);
}

/** An item's first two element children, both classed: its title and its panel. */
function titleAndPanel(item: ElementNode): [ElementNode, ElementNode] | null {
  const pair: ElementNode[] = [];
  for (const child of item.children) {
    if (child.type !== 'element') continue;
    pair.push(child);
    if (pair.length === 2) break;
  }
  const [title, panel] = pair;
  if (!title?.attrs.class || !panel?.attrs.class) return null;
  return [title, panel];
}

/** An element's tag and class list without state tokens, and whether it had one. */
function stateOf(el: ElementNode): { key: string; marked: boolean } {
  const tokens = (el.attrs.class ?? '').split(/\s+/).filter(Boolean);
  const rest = tokens.filter((t) => !STATE_TOKEN.test(t));
  return { key: `${el.tag} ${rest.sort().join(' ')}`, marked: rest.length < tokens.length };
}
