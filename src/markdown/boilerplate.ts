/**
 * Page chrome that is removed before and after extraction: hidden elements, navigation,
 * forms and their controls, cookie/consent banners and share widgets. Patterns are the
 * widely-used class/id conventions, never site-specific selectors.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { linkDensity, textLength, textLengthUpTo } from './measure.js';

/** Never content, wherever they appear. */
const CHROME_TAGS = new Set([
  'nav',
  'button',
  'input',
  'label',
  'dialog',
  'embed',
  'link',
  'meta',
  'area',
  'map',
]);

const CHROME_ROLES = new Set([
  'navigation',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
  'search',
  'banner',
  'contentinfo',
]);

/** Consent banners, share bars, newsletter prompts, skip links, print-only and screen-reader text. */
const CHROME_CLASS =
  /(?:^|[\s_-])(?:cookie|cookies|consent|gdpr|onetrust|cookiebar|share|sharing|social-?(?:links|share|icons|media)|sharedaddy|addthis|newsletter|subscribe|signup|skip-?link|sr-only|screen-?reader|visually-?hidden|visuallyhidden|print-only|ad-?slot|advert|advertisement|ads)(?:$|[\s_-])/i;

/**
 * Shown in print only, hidden on screen, by the CSS frameworks' display utilities: Bootstrap
 * 4/5 `d-none d-print-block` (unless a breakpoint class shows it on some screen, as in
 * `d-none d-md-block d-print-block`), Bootstrap 3 `visible-print-*`, Foundation
 * `show-for-print`. A citation line, a copyright notice, a logo for the printout: not what
 * the page shows.
 */
const PRINT_SHOWN =
  /(?:^|\s)(?:visible-print(?:-block|-inline|-inline-block)?|show-for-print)(?:$|\s)/;
const SCREEN_NONE = /(?:^|\s)d-none(?:$|\s)/;
const PRINT_DISPLAY = /(?:^|\s)d-print-(?!none)[a-z-]+(?:$|\s)/;
const SCREEN_DISPLAY = /(?:^|\s)d-(?:sm|md|lg|xl|xxl)-(?!none)[a-z-]+(?:$|\s)/;

function printOnly(classes: string): boolean {
  if (PRINT_SHOWN.test(classes)) return true;
  return SCREEN_NONE.test(classes) && PRINT_DISPLAY.test(classes) && !SCREEN_DISPLAY.test(classes);
}

export function isHidden(el: ElementNode): boolean {
  const a = el.attrs;
  if (a.class && printOnly(a.class)) return true;
  if (a.hidden !== undefined) return true;
  if (a['aria-hidden'] === 'true' && !(a.class ?? '').includes('fallback-image')) return true;
  const style = a.style;
  if (style && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)) return true;
  return false;
}

/**
 * A page saved or rendered while a dialog was open marks everything behind the dialog
 * `aria-hidden` (the modal's inert background): an element so marked that holds most of
 * the page's text, and is not hidden by its style, is the page itself.
 */
function inertBackground(el: ElementNode, pageTextLength: number): boolean {
  const a = el.attrs;
  if (a['aria-hidden'] !== 'true' || a.hidden !== undefined) return false;
  if (a.style && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(a.style)) return false;
  return textLength(el) >= pageTextLength * 0.5;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A heading holding a toggle holds nothing else but the space around it. */
const TOGGLE_SIBLINGS = 3;

/**
 * An accordion writes each section's title as the button that folds it (`<h3><button
 * aria-expanded>`): the button is the heading's text, not a control beside it. Only a
 * visible button that is all its heading holds (a bounded test, and its unwrapping below
 * stays linear whatever the page nests).
 */
function isHeadingToggle(el: ElementNode): boolean {
  const parent = el.parent;
  if (el.tag !== 'button' || !parent || !HEADINGS.has(parent.tag)) return false;
  return parent.children.length <= TOGGLE_SIBLINGS && !isHidden(el);
}

/** An accordion's title button holds a line: at most this many characters. */
const TOGGLE_TEXT = 150;
/** ...and the panel after it a paragraph's worth of text (characters)... */
const PANEL_TEXT = 80;
/** ...under this share of links (a menu's button opens a list of links). */
const PANEL_LINKS = 0.3;

/**
 * An accordion written without headings (a FAQ's questions): each item is a block of the
 * button that folds it, its title, and the panel of prose after it, nothing else. The
 * button is the item's title, as a heading's toggle is; a menu's button opens links, a
 * "read more" button follows its text.
 */
function isPanelToggle(el: ElementNode): boolean {
  const parent = el.parent;
  if (el.tag !== 'button' || !parent || isHidden(el)) return false;
  let kids = 0;
  let panel: ElementNode | null = null;
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (++kids > 2) return false;
    if (kids === 1 && child !== el) return false;
    if (kids === 2) panel = child;
  }
  if (!panel || isHidden(panel)) return false;
  const title = textLengthUpTo(el, TOGGLE_TEXT + 1);
  if (title === 0 || title > TOGGLE_TEXT) return false;
  const length = textLength(panel);
  return length >= PANEL_TEXT && linkDensity(panel, length) < PANEL_LINKS;
}

/**
 * Removes chrome in place. Forms go too, unless a form wraps most of the page (ASP.NET
 * pages put the whole body in one `<form>`), in which case only its controls go. With
 * `listedForms`, a form with no field to fill in that holds text (a forum's moderation
 * form around its posts) keeps its text too; a shop's pages leave it off: there such a
 * form is the compare or cart machinery around the cards, which the grid rules weigh.
 */
export function removeChrome(root: ElementNode, pageTextLength: number, listedForms = false): void {
  const doomed: ElementNode[] = [];
  const toggles: ElementNode[] = [];
  const walk = (el: ElementNode, sectioned: boolean): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (isHeadingToggle(child) || isPanelToggle(child)) toggles.push(child);
      else if (
        isChrome(child, pageTextLength, listedForms) ||
        (!sectioned && isPageFooter(child))
      ) {
        doomed.push(child);
        continue;
      }
      // a footer kept (mostly prose) bounds the test too: a footer in it is not the page's,
      // and nested footers are not each measured
      walk(child, sectioned || child.tag === 'footer' || isSectioning(child));
    }
  };
  walk(root, false);
  removeNodes(doomed);
  // the toggle's text stays in its heading or item (what is chrome inside it went above)
  for (const toggle of toggles) unwrap(toggle);
}

const SECTIONING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);
const SECTIONING_ROLES = new Set(['article', 'complementary', 'main', 'navigation', 'region']);

function isSectioning(el: ElementNode): boolean {
  return SECTIONING_TAGS.has(el.tag) || SECTIONING_ROLES.has(el.attrs.role ?? '');
}

/**
 * A `<footer>` outside every sectioning element is the page's footer: browsers map it to
 * role=contentinfo (HTML-AAM), the landmark removed above when a page writes it out. Taken
 * when mostly links (its columns of site links), whatever share of the page it holds: a
 * script shell's only markup is often this footer, which extraction would otherwise keep.
 * A footer of addresses and prose stays for the extraction to judge.
 */
function isPageFooter(el: ElementNode): boolean {
  return el.tag === 'footer' && el.attrs.role === undefined && linkDensity(el) >= PAGE_FOOTER_LINKS;
}

/** The share of a page footer's text in links above which it is a site's link columns. */
const PAGE_FOOTER_LINKS = 0.5;

/** Puts the element's children in its place. */
function unwrap(el: ElementNode): void {
  const parent = el.parent;
  if (!parent) return;
  const at = parent.children.indexOf(el);
  if (at < 0) return;
  for (const child of el.children) child.parent = parent;
  parent.children.splice(at, 1, ...el.children);
  el.parent = null;
}

/** Characters of text a form without fields holds to be content: posts, not a step of a wizard. */
const LISTED_FORM_TEXT = 300;
/** Inputs a reader does not fill in: a form holding only these asks nothing of them. */
const UNFILLED_INPUTS = new Set(['hidden', 'submit', 'button', 'image', 'reset']);

/**
 * Whether a form has no field to fill in (no text box, choice, list or area): one that
 * wraps items to act on at once (a forum's moderation form around its posts) is the page's
 * content, where a search, sign-in or newsletter form asks for something.
 */
function fieldless(form: ElementNode): boolean {
  const walk = (el: ElementNode): boolean => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'select' || child.tag === 'textarea') return false;
      if (
        child.tag === 'input' &&
        !UNFILLED_INPUTS.has((child.attrs.type ?? 'text').toLowerCase())
      ) {
        return false;
      }
      if (!walk(child)) return false;
    }
    return true;
  };
  return walk(form);
}

function isChrome(el: ElementNode, pageTextLength: number, listedForms: boolean): boolean {
  if (CHROME_TAGS.has(el.tag)) return true;
  if (isHidden(el)) return !inertBackground(el, pageTextLength);
  const role = el.attrs.role;
  if (role && CHROME_ROLES.has(role)) return true;
  if (el.tag === 'form' || el.tag === 'fieldset') {
    const length = textLength(el);
    if (length >= pageTextLength * 0.5) return false;
    return !(listedForms && length >= LISTED_FORM_TEXT && fieldless(el));
  }
  if (el.tag === 'body' || el.tag === 'html' || el.tag === 'article' || el.tag === 'main') {
    return false;
  }
  const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
  if (match.length > 1 && CHROME_CLASS.test(match)) {
    // a wrapper named like chrome but holding real prose is kept (e.g. "post-share-wrap")
    return textLength(el) < 1000;
  }
  return false;
}
