/**
 * Tabbed content as a reader can see it: documentation writes one panel per platform or
 * language (Windows, macOS, Linux; C#, Python), shows one and leaves the others `hidden`
 * until their tab is clicked. Each is the page's content: WCXB's references of such pages
 * keep all of them. A panel is told by ARIA alone (its own `role="tabpanel"`, named by a
 * `role="tab"` in `aria-controls`), so any language is served.
 *
 * Only a panel holding prose or code opens: a marketing page's tabbed card carousel (links
 * under headings) and a panel a script fills ("Loading prices…") stay hidden.
 */
import type { ElementNode } from './dom.js';
import { controlledPanels, withoutInlineHiding } from './hidden-panels.js';
import { textLengthUpTo } from './measure.js';

/** A panel opens when one of its paragraphs or code blocks holds this many characters. */
const PROSE = 80;
const PROSE_TAGS: ReadonlySet<string> = new Set(['p', 'pre']);

/** Opens, in place, the hidden panels of `body`'s tabs; what a panel itself hides stays hidden. */
export function openTabPanels(body: ElementNode): void {
  const panels = controlledPanels(
    body,
    (a) => a.role === 'tab',
    (el) => el.attrs.role === 'tabpanel' && el.attrs.id !== '' && hiddenPanel(el.attrs),
  );
  const budget = { nodes: LOOK_BUDGET };
  for (const panel of panels) {
    if (holdsProse(panel, budget)) panel.attrs = shown(panel.attrs);
  }
}

function hiddenPanel(a: Readonly<Record<string, string>>): boolean {
  return (
    a.hidden !== undefined ||
    a['aria-hidden'] === 'true' ||
    /display\s*:\s*none/i.test(a.style ?? '')
  );
}

/**
 * Elements looked at in all panels together: panels nested in panels (a hostile page's
 * thousands) would each be walked again; past this, no more panels open.
 */
const LOOK_BUDGET = 100_000;

function holdsProse(panel: ElementNode, budget: { nodes: number }): boolean {
  const stack: ElementNode[] = [panel];
  while (stack.length > 0 && budget.nodes > 0) {
    const el = stack.pop() as ElementNode;
    budget.nodes--;
    if (PROSE_TAGS.has(el.tag) && textLengthUpTo(el, PROSE) >= PROSE) return true;
    for (const child of el.children) if (child.type === 'element') stack.push(child);
  }
  return false;
}

/** The panel's attributes without what hid it (attributes objects are shared by copies). */
function shown(attrs: Readonly<Record<string, string>>): Record<string, string> {
  const copy = withoutInlineHiding(attrs);
  if (copy['aria-hidden'] === 'true') delete copy['aria-hidden'];
  return copy;
}
