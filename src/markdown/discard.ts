/**
 * Boilerplate named as such, inside an extracted article: the class and id conventions of
 * CMS themes and plugins for what sits beside the text (trafilatura's OVERALL_DISCARD_XPATH:
 * related posts, share and social bars, tag lists, author boxes, ratings, print buttons,
 * breadcrumbs, tables of contents, teasers, widgets, back-to-top links...).
 *
 * The scorer (extract.ts) has already chosen the article by its text; these elements are
 * what the chosen container also holds. A named element is dropped only when it is a small
 * part of the article, so a wrapper that happens to carry such a name around the text
 * itself (e.g. `class="post-with-sidebar"`) is kept.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { isDataTable } from './prepare-article.js';
import { TreeStats } from './tree-stats.js';

const NAMES = [
  'meta',
  'embed',
  'premium',
  'footer',
  'related',
  'viral',
  'share-',
  'sharing',
  'social',
  'sociable',
  'syndication',
  'newsletter',
  'subnav',
  'cookie',
  'sidebar',
  'banner',
  'menu',
  'navbar',
  'navigation',
  'navbox',
  'post-nav',
  'breadcrumb',
  'bread-crumb',
  'author',
  'button',
  'byline',
  'rating',
  'timestamp',
  'user-info',
  'user-profile',
  '-ad-',
  'article-infos',
  'infoline',
  'outbrain',
  'taboola',
  'criteo',
  'most-popular',
  'mol-factbox',
  '-stories',
  'overlay',
  'paid-content',
  'paidcontent',
  'comments-title',
  'nocomments',
  'akismet',
  'hide-print',
  'noprint',
  'print-button',
  'disclaimer',
  'backlink',
  'back-link',
  'to-top',
  'toc-container',
  // a box promoting another page between two paragraphs; not "teaser" alone, which German
  // CMSs use for the lead paragraph
  'inline-teaser',
  'inlineteaser',
  'inline-textbox',
  'inlinetextbox',
];
const NO_ITEMS: ReadonlySet<ElementNode> = new Set();
const NAMED = new RegExp(NAMES.map((n) => n.replace(/[-]/g, '\\-')).join('|'), 'i');
/** Names that must start the class or id: shorter words that occur inside others. */
const STARTS = /^(?:shar|nav|reply-|hide-|tags?(?:$|[\s_-]))/i;
/** The element kinds trafilatura's rule applies to (containers and text blocks). */
const TAGS = new Set(['div', 'section', 'span', 'p', 'ul', 'ol', 'li', 'aside', 'figure', 'dl']);

/**
 * Removes named boilerplate holding at most `share` of the article's text; never one of
 * `items` (a list's items, whatever their classes say: `data-[voice-celebrating]` holds
 * "rating"), nor the blocks of a name that recurs through the article (templateParts);
 * with `wholeItems`, nothing inside the items either (region-items.ts: the parts of a
 * listing's entries, titled by their links).
 */
export function discardNamedBoilerplate(
  article: ElementNode,
  share: number,
  items: ReadonlySet<ElementNode> = NO_ITEMS,
  wholeItems = false,
): void {
  const stats = new TreeStats();
  const total = stats.of(article).length;
  const tableText = dataTableText(article, stats);
  // a box whose text is mostly a data table is the table's
  const isTableBox = (el: ElementNode): boolean => {
    const text = tableText.get(el) ?? 0;
    return text > 0 && text >= stats.of(el).length / 2;
  };
  const doomed: ElementNode[] = [];
  let found: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (wholeItems && items.has(child)) continue;
      if (
        !items.has(child) &&
        (TAGS.has(child.tag) || isNamedCustomElement(child)) &&
        isNamed(child) &&
        stats.of(child).length <= total * share &&
        !isTableBox(child)
      ) {
        found.push(child);
      } else walk(child);
    }
  };
  walk(article);
  // the parts spared are looked into as any other block is, until no name recurs
  // names found to label the text itself, which stay its own in the blocks they wrap
  const ownNames = new Set<string>();
  while (found.length > 0) {
    const parts = templateParts(found, stats, total * share);
    for (const el of namedProse(found, stats, total * share, ownNames)) parts.add(el);
    const spared = found.filter((el) => parts.has(el));
    for (const el of found) if (!parts.has(el)) doomed.push(el);
    found = [];
    for (const el of spared) walk(el);
  }
  removeNodes(doomed);
}

/**
 * The names of an item's parts (its metadata, its buy button, its rating, its author and
 * date), as against the names of a page's regions (menus, overlays, sidebars, replies).
 */
const ITEM_PART = /meta|button|rating|author|byline|timestamp/i;
/**
 * A name recurs on at least this many blocks when it is each item's part: a results page
 * shows a page of items (20 and more), a row of related products beside a product a handful.
 */
const RECURRING = 16;

/**
 * The named blocks of one tag and class (digits left out), named as an item's part, that
 * recur RECURRING times or more and together hold over `most` characters: a listing's cards each wrap their
 * description in a block the template names for the card's buy button or its metadata
 * (`cartButton`, `metadata-list-item`), and the list is the article's text. Boilerplate
 * beside the text (a share bar, a byline) is small even where it repeats.
 */
function templateParts(found: ElementNode[], stats: TreeStats, most: number): Set<ElementNode> {
  const groups = new Map<string, { els: ElementNode[]; text: number }>();
  for (const el of found) {
    if (!ITEM_PART.test(el.attrs.class ?? '')) continue;
    const key = `${el.tag} ${(el.attrs.class ?? '').replace(/\d+/g, '')}`;
    const group = groups.get(key) ?? { els: [], text: 0 };
    group.els.push(el);
    group.text += stats.of(el).length;
    groups.set(key, group);
  }
  const parts = new Set<ElementNode>();
  for (const { els, text } of groups.values()) {
    if (els.length >= RECURRING && text > most) for (const el of els) parts.add(el);
  }
  return parts;
}

/** Link text share under which named blocks read as prose, not as a menu or a row of teasers. */
const PROSE_LINKS = 0.1;

/**
 * The named blocks that share one boilerplate name (the part of NAMES their class or id
 * matched) and together hold over `most` characters, with few links: a template that names
 * its own text blocks so (`product-stories-header` on each section of a product's story,
 * `richtext--disclaimer` on each column of a page builder) splits the text into blocks each
 * under the share, but the name labels most of the article, as a wrapper named so would.
 * Menus, footers and rows of related items are link dense; a share bar or a byline is small.
 * Once so, the name is the text's own in the blocks it wraps too (`-stories-header-copy`
 * inside `-stories-header`), however little each holds (`ownNames`, filled here). STARTS'
 * prefixes are left out: a reply or a navigation block is one of a region's many, each its
 * own (a thread's replies are judged by thread-page.ts, not here); so are the names of an
 * item's parts, which templateParts spares only on a page of items.
 */
function namedProse(
  found: ElementNode[],
  stats: TreeStats,
  most: number,
  ownNames: Set<string>,
): ElementNode[] {
  const groups = new Map<string, { els: ElementNode[]; text: number; links: number }>();
  for (const el of found) {
    const name = matchedName(el);
    if (!name || ITEM_PART.test(name)) continue;
    const s = stats.of(el);
    const group = groups.get(name) ?? { els: [], text: 0, links: 0 };
    group.els.push(el);
    group.text += s.length;
    group.links += s.linkText + 0.3 * s.hashLinkText;
    groups.set(name, group);
  }
  const out: ElementNode[] = [];
  for (const [name, { els, text, links }] of groups) {
    if (links > text * PROSE_LINKS) continue;
    if (text > most || ownNames.has(name)) {
      ownNames.add(name);
      out.push(...els);
    }
  }
  return out;
}

/** The boilerplate name an element carries (lowercased), or '' when it has none. */
function matchedName(el: ElementNode): string {
  const tagMatch = el.tag.includes('-') ? NAMED.exec(el.tag) : null;
  if (tagMatch) return tagMatch[0].toLowerCase();
  for (const value of [el.attrs.class ?? '', el.attrs.id ?? '']) {
    const m = NAMED.exec(value);
    if (m) return m[0].toLowerCase();
  }
  return '';
}

/** A custom element (`<pp-inline-teaser>`) carries its kind in its tag name. */
function isNamedCustomElement(el: ElementNode): boolean {
  return el.tag.includes('-') && NAMED.test(el.tag);
}

function isNamed(el: ElementNode): boolean {
  if (isNamedCustomElement(el)) return true;
  const cls = el.attrs.class ?? '';
  const id = el.attrs.id ?? '';
  if (!cls && !id) return false;
  return NAMED.test(cls) || NAMED.test(id) || STARTS.test(cls) || STARTS.test(id);
}

/**
 * Each element's text in data tables (the outermost ones: a table inside a table is counted
 * with it), in one walk, for the elements that have any. A table is data whatever its box
 * is named (Webflow puts an author's HTML, tables included, in a `w-embed` box; a comparison
 * sits in a `rating` box), as Readability's conditional cleaning spares data tables too.
 */
function dataTableText(article: ElementNode, stats: TreeStats): Map<ElementNode, number> {
  const out = new Map<ElementNode, number>();
  const walk = (el: ElementNode): number => {
    let text = 0;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'table') text += isDataTable(child) ? stats.of(child).length : 0;
      else text += walk(child);
    }
    if (text > 0) out.set(el, text);
    return text;
  };
  walk(article);
  return out;
}
