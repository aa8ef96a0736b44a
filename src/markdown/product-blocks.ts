/**
 * A product page's blocks as a reader sees them, set before chrome removal (which drops
 * hidden elements) on a page that says it is a product (product-page.ts).
 *
 * Shops set the description, specifications and details in accordions and tabs, hidden
 * until a reader clicks their toggle: WCXB's references of product pages hold them (a
 * furniture store's specifications, a jacket's material and care). A panel is told by ARIA
 * alone, so any language is served. Blocks the template hides with the CSS frameworks'
 * utility classes are a store's raw metadata fields, a variant's other price, a form's
 * messages: they go, unless they hold a sentence of prose (a "read more" toggle's full
 * text, which the references keep). The buy box around the cart's form or button (stock,
 * delivery, instalments) goes. Specification labels written against their values get a
 * space, and text that is only a machine id goes. Tab sets without ARIA open too
 * (sibling-tab-panels.ts); an accordion marked by class alone loses its collapsed items
 * (closed-accordions.ts).
 */
import { isHidden } from './boilerplate.js';
import { dropClosedAccordionItems } from './closed-accordions.js';
import { type ElementNode, findFirst, type Node, removeNodes } from './dom.js';
import { controlledPanels } from './hidden-panels.js';
import { textLength } from './measure.js';
import { showTabPanels } from './sibling-tab-panels.js';
import { dropUnselectedTabs } from './unselected-tabs.js';

/**
 * Sets, in place, the blocks of `body` as a reader sees them. A collapsed panel opens: a
 * hidden element (the `hidden` attribute, `display:none`, `aria-hidden`, a hiding class)
 * whose id a toggle names in `aria-controls`, the toggle saying it opens something
 * (`aria-expanded`, or a tab); what the panel itself hides stays hidden. A block hidden by
 * a utility class (`hide`, `hidden`, `d-none`, `is-hidden`) goes, but not when the class
 * list shows it again at some width (`hidden md:block`, `d-none d-lg-block`).
 */
export function showProductBlocks(body: ElementNode): void {
  separateLabels(body);
  dropBuyBoxes(body);
  // a tab set shows its selected panel only (unselected-tabs.ts); what is left opens below
  dropUnselectedTabs(body);
  dropClosedAccordionItems(body);
  showTabPanels(body);
  const opened = openPanels(body);
  const hidden: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (hiddenByClass(child.attrs.class)) hidden.push(child);
      walk(child);
    }
  };
  walk(body);
  removeNodes(hidden.filter((el) => !opened.has(el) && !holdsParagraph(el, PROSE)));
}

/**
 * Opens, in place, the collapsed panels of `body`: hidden elements (the `hidden` attribute,
 * `display:none`, `aria-hidden`, a hiding class) whose id a toggle names in
 * `aria-controls`, the toggle saying it opens something (`aria-expanded`, or a tab). What
 * a panel itself hides stays hidden. Gives the panels opened. Without `tabs`, only an
 * accordion's toggle (`aria-expanded`) opens its panel: tab-panels.ts opens other pages' tab
 * panels, and only those that hold prose (a tabbed carousel of cards, a "Loading…" panel a
 * script fills, stay hidden).
 */
export function openPanels(body: ElementNode, tabs = true): ReadonlySet<ElementNode> {
  const panels = controlledPanels(
    body,
    (a) => a['aria-expanded'] !== undefined || (tabs && a.role === 'tab'),
    (el) => hiddenByClass(el.attrs.class) || isHidden(el),
  );
  for (const panel of panels) panel.attrs = shownAttrs(panel.attrs);
  return new Set(panels);
}

/**
 * A buy control: the form, button or input that puts the product in the cart, named so by
 * the shop templates' conventions in its id, class, name, action or test id.
 */
const BUY_CONTROL =
  /add-?to-?(?:cart|bag|basket)|addtocart|atc-button|buy-?box|product-form|\/(?:cart|basket|bag)\/add/i;
/** More buy controls than this are other products' quick-add buttons beside the product's. */
const OWN_CONTROLS = 3;
/** A buy box holds at most this much text (characters): a price, options, stock, shipping. */
const BUY_BOX = 1000;
/** A paragraph this long (characters) is the product's description, not the buy box's. */
const DESCRIPTION = 150;

/**
 * Removes, in place, the buy boxes: each buy control with the wrappers around it that hold
 * no `<h1>`, no paragraph of description and at most BUY_BOX characters. Their stock
 * notes, delivery promises, instalment offers and option pickers are the shop's, not the
 * product's: WCXB's references of product pages leave them out (32 of the 45 with a
 * reference hold no price at all). Chrome removal takes the controls themselves.
 */
function dropBuyBoxes(body: ElementNode): void {
  const controls: ElementNode[] = [];
  const find = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (isBuyControl(child)) controls.push(child);
      else find(child);
    }
  };
  find(body);
  const own = controls.length > OWN_CONTROLS ? controls.slice(0, 1) : controls;
  const boxes = own.map((control) => {
    let box = control;
    for (let p = control.parent; p && p !== body; p = p.parent) {
      if (textLength(p) > BUY_BOX || findFirst(p, 'h1') || holdsParagraph(p, DESCRIPTION)) break;
      box = p;
    }
    return box;
  });
  removeNodes(boxes);
}

function isBuyControl(el: ElementNode): boolean {
  if (el.tag !== 'form' && el.tag !== 'button' && el.tag !== 'input') return false;
  const a = el.attrs;
  return BUY_CONTROL.test(
    `${a.id ?? ''} ${a.class ?? ''} ${a.name ?? ''} ${a.action ?? ''} ${a['data-testid'] ?? ''}`,
  );
}

/** Class names of a specification's label and of its value (`__label`, `-name`; `__value`). */
const LABEL_CLASS = /(?:^|[\s_-])(?:label|name|key|term|title|attr)(?:$|[\s_-])/i;
const VALUE_CLASS = /(?:^|[\s_-])(?:value|val|data|desc)(?:$|[\s_-])/i;

/**
 * Sets a space, in place, between a specification's label and its value written side by
 * side (`<span class="…__label">Weight</span><span class="…__value">12 oz</span>`): the
 * style sheet sets them apart, and without it they read as one word ("Weight12 oz").
 */
function separateLabels(el: ElementNode): void {
  let previous: ElementNode | null = null;
  for (let i = 0; i < el.children.length; i++) {
    const child = el.children[i] as Node;
    if (child.type === 'text') {
      // a machine id alone (a template's obfuscated "Sponsored" label) is not text to read
      if (MACHINE_ID.test(child.text)) child.text = '';
      else if (child.text !== '') previous = null;
      continue;
    }
    if (previous && isLabel(previous) && VALUE_CLASS.test(child.attrs.class ?? '')) {
      el.children.splice(i, 0, { type: 'text', text: ' ', parent: el });
      i++;
    }
    previous = child;
    separateLabels(child);
  }
}

const MACHINE_ID = /^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i;

const isLabel = (el: ElementNode) => LABEL_CLASS.test(el.attrs.class ?? '');

/**
 * A paragraph this long (characters) is a sentence of prose: a "read more" toggle's full
 * text, a question's answer. 150 dropped a service page's answers (WCXB 0719, 0.976 → 0.958).
 */
const PROSE = 60;

/** Whether `el` holds a `<p>` of at least `min` characters. */
function holdsParagraph(el: ElementNode, min: number): boolean {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'p' ? textLength(child) >= min : holdsParagraph(child, min)) return true;
  }
  return false;
}

const HIDING_CLASS = /(?:^|\s)(?:hide|hidden|d-none|is-hidden)(?:$|\s)/;
/** Tailwind's `md:block`, Bootstrap's `d-lg-flex`: shown again from some width on. */
const SHOWING_CLASS =
  /(?:^|\s)(?:[a-z0-9-]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-[a-z]+-(?:block|flex|grid|inline|inline-block|inline-flex|table))(?:$|\s)/;

/** Hidden by a utility class that no breakpoint class shows again (collection-hidden.ts too). */
export function hiddenByClass(cls: string | undefined): boolean {
  return cls !== undefined && HIDING_CLASS.test(cls) && !SHOWING_CLASS.test(cls);
}

/** A copy (copies of the tree share attrs objects) without the hiding markers. */
function shownAttrs(attrs: Record<string, string>): Record<string, string> {
  const copy = { ...attrs };
  delete copy.hidden;
  if (copy.class)
    copy.class = copy.class.replace(/(?:^|\s)(?:hide|hidden|d-none|is-hidden)(?=$|\s)/g, '');
  if (copy['aria-hidden'] === 'true') delete copy['aria-hidden'];
  if (copy.style)
    copy.style = copy.style.replace(/(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi, '');
  return copy;
}
