/**
 * jusText's context rule at the edges of an extracted article: the blocks before the
 * article's first prose and after its last are where templates leave labels, section names,
 * photo credits, tag lists and partner names inside the content container. Such a block is
 * short and not a sentence: jusText calls a block bad when it has almost no function words
 * (stopword density well under running text's third) or is mostly links. Bad blocks are
 * dropped from each end until the first block that reads as a sentence; nothing between
 * two sentences is touched, however short. Paragraphs written as `<br><br>` inside one
 * element are blocks of their own (as Readability's replaceBrs makes them).
 *
 * Besides jusText's classes:
 * - at either edge, a block whose whole text is one of the site's navigation labels
 *   (site-labels.ts: "News" over a removed teaser list) is bad, even as a heading at the
 *   tail (at the head a heading is the page's title, which its menu entry names alike);
 * - at the head, a heading followed straight by one of the same rank heads nothing (its
 *   widget is gone), and a caption ending with a photo credit is the lead picture's (the
 *   picture stays);
 * - at the tail, a label ending with a colon announces nothing any more; the publisher's
 *   notice about itself (its name with a copyright, an address, its app or its affiliate
 *   commission), a content licence line and a line of the site's legal links (Impressum,
 *   Privacy) are bad; and a heading whose whole section the scan removed headed
 *   boilerplate and goes with it.
 */
import { createElement, type ElementNode, type Node, removeNodes } from './dom.js';
import { holdsPicture, innerText, linkDensity, PICTURES, textLength } from './measure.js';
import { NO_SITE, normalizeLabel, type Site, squashName } from './site-labels.js';
import { stopwordDensity } from './stopwords.js';

const LEAF_BLOCKS = new Set([
  'p',
  'li',
  'dd',
  'dt',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'td',
  'th',
  'figcaption',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'ul',
  'ol',
  'dl',
  'table',
  'tr',
  'figure',
  'main',
]);
/**
 * Blocks this long are never judged. jusText's length_low is 70 and length_high 200; 150
 * scored best of 70 / 120 / 150 / 200 on the three corpora (BENCHMARKS.md, issue 14).
 */
const SHORT = 150;
/** Under this stopword density a short block is not a sentence (jusText's stopwords_low is 0.30). */
const LOW_DENSITY = 0.1;
const MAX_LINK_DENSITY = 0.5;
/** Prose in a covered language has about a third stopwords; below this, not covered. */
const COVERED = 0.15;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

interface Block {
  el: ElementNode;
  /** Inside a table, list or code: structured text, never judged by its words. */
  structured: boolean;
}

/**
 * `items`: a list's items (list-region.ts), structured text like a table's rows: a
 * listing's titles, prices and dates are short and name things rather than say them.
 */
export function removeEdgeBlocks(
  article: ElementNode,
  site: Site = NO_SITE,
  items: ReadonlySet<ElementNode> = new Set(),
): void {
  const blocks = leafBlocks(article, items);
  // edges are edges of prose: a page of short blocks only (a fallback, a notice) is left whole
  const prose = blocks.find(isProse);
  if (!prose) return;
  // stopwords tell prose only in a language the lists cover: text in another (Arabic,
  // Chinese) has none at all, and is judged by its links alone. One paragraph of prose
  // tells the language as well as the whole article, at a fraction of the reading.
  const covered = stopwordDensity(innerText(prose.el)).density >= COVERED;
  const doomed: Node[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    const verdict =
      // a heading at the head is the page's title, which its menu entry names alike
      (isSiteLabel(block, site) && !HEADINGS.has(block.el.tag)) || isCreditedCaption(block)
        ? 'bad'
        : judge(block, covered);
    if (verdict === 'empty') continue;
    if (verdict === 'good' && !isEmptyHeading(blocks, i)) break;
    doomed.push(block.el);
  }
  const fromHead = new Set(doomed);
  const headLength = doomed.length;
  for (const block of [...blocks].reverse()) {
    if (fromHead.has(block.el)) break;
    // a heading whose section this scan removed whole headed boilerplate
    const headedBad = doomed.length > headLength && HEADINGS.has(block.el.tag);
    const verdict =
      headedBad ||
      announcesNothing(block) ||
      isSiteLabel(block, site) ||
      isSiteNotice(block, site) ||
      isLicenceNotice(block) ||
      isLegalLine(block)
        ? 'bad'
        : judge(block, covered);
    if (verdict === 'empty') continue;
    if (verdict === 'good') break;
    doomed.push(block.el);
  }
  removeNodes(doomed);
}

/**
 * A heading at the head of the article followed straight by a heading of the same rank
 * heads nothing: a widget's title whose widget was removed ("Upcoming events").
 */
function isEmptyHeading(blocks: Block[], i: number): boolean {
  const el = (blocks[i] as Block).el;
  if (!HEADINGS.has(el.tag)) return false;
  for (let k = i + 1; k < blocks.length; k++) {
    const next = (blocks[k] as Block).el;
    if (innerText(next).length === 0) continue;
    return next.tag === el.tag;
  }
  return false;
}

/** A notice is a line or two. */
const NOTICE = 300;
/** What the publisher says of itself: its copyright, its address, its app. */
const NOTICE_MARK =
  /©|\(c\)|copyright|all rights reserved|alle rechte|[\w.+-]+@[\w-]+\.\w|(?<!\p{L})apps?(?!\p{L})|provision|commission|affiliate/iu;

/**
 * The publisher's notice about itself under the story: a short block that names the site
 * (site-labels.ts: og:site_name, the canonical host) together with a copyright sign, an
 * e-mail address or its app ("© 2022 BreakingBelizeNews.com…", "download the Nationnews
 * apps"). The name alone is not enough: news sites name themselves in the story ("told Fox
 * News").
 */
/**
 * A content licence line ("Inhalte dieser Website stehen unter CC-BY"): the site's terms, not
 * the story. Copyright lines are not judged so: agency copy ends with the agency's notice
 * ("© 2019 Associated Press. All Rights Reserved."), which the articles corpus keeps.
 */
const LICENCE = /creative commons|(?<!\p{L})cc[- ]by(?:[- ]\p{L}{2})*(?!\p{L})/iu;

function isLicenceNotice({ el, structured }: Block): boolean {
  if (structured) return false;
  const text = innerText(el);
  return text.length > 0 && text.length <= NOTICE && LICENCE.test(text);
}

function isSiteNotice({ el, structured }: Block, site: Site): boolean {
  if (structured || site.names.length === 0) return false;
  const text = innerText(el);
  if (text.length === 0 || text.length > NOTICE || !NOTICE_MARK.test(text)) return false;
  const squashed = squashName(text);
  return site.names.some((name) => squashed.includes(name));
}

/** A block whose whole text is one of the site's navigation labels (site-labels.ts). */
function isSiteLabel({ el }: Block, site: Site): boolean {
  if (site.labels.size === 0) return false;
  const text = innerText(el);
  return text.length > 0 && text.length <= 40 && site.labels.has(normalizeLabel(text));
}

/**
 * The site's legal links in a line ("Impressum | Datenschutz | © …", "Privacy · Terms"):
 * a footer's line, whatever else it holds. The names of the pages every site must link.
 */
const LEGAL =
  /^(?:impressum|imprint|datenschutz(?:erklärung)?|privacy(?: policy)?|terms(?: of (?:use|service))?|agb|disclaimer|haftungsausschluss|cookies?(?: policy| settings)?|mentions légales|politique de confidentialité|aviso legal|política de privacidad|note legali)$/iu;
const LEGAL_LINE = 200;

function isLegalLine({ el }: Block): boolean {
  if (textLength(el) > LEGAL_LINE) return false;
  let legal = 0;
  const walk = (node: ElementNode): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'a') {
        if (LEGAL.test(innerText(child))) legal++;
      } else walk(child);
    }
  };
  walk(el);
  return legal >= 2;
}

/**
 * A line ending with a photo credit ("… escolar. Foto: Andina", "… (Photo: Reuters)") before
 * the article's first prose: the lead picture's caption, left when the picture was a lazy
 * placeholder or a slideshow the extraction dropped.
 */
const CREDIT_TAIL =
  /(?:^|[\s(])(?:fotos?|photos?|bild|image|crédito|credit|quelle|source)\s*:\s*[^:.]{2,60}\)?\.?$/iu;
const CAPTION_LINE = 250;

function isCreditedCaption({ el, structured }: Block): boolean {
  if (structured || HEADINGS.has(el.tag)) return false;
  const text = innerText(el);
  return text.length <= CAPTION_LINE && CREDIT_TAIL.test(text) && !holdsPicture(el);
}

/** A label this long or shorter, ending with a colon, announces what follows it. */
const LABEL = 100;

/**
 * The article's last block is a label ending with a colon ("Die Karte zum Abspeichern:",
 * "More information:"): what it announced (a map, a video, a list of links) was a widget or
 * navigation, removed as such, and the label now announces nothing.
 */
function announcesNothing({ el, structured }: Block): boolean {
  if (structured) return false;
  const text = innerText(el);
  return text.length <= LABEL && /[:：]$/.test(text) && !pictureFollows(el);
}

/** A picture after `el` in the article ("The chart:" over the chart is a picture's label). */
function pictureFollows(el: ElementNode): boolean {
  for (let node: ElementNode | null = el; node?.parent; node = node.parent) {
    const siblings = node.parent.children;
    for (let i = siblings.indexOf(node) + 1; i < siblings.length; i++) {
      const next = siblings[i] as Node;
      if (next.type === 'element' && (PICTURES.has(next.tag) || holdsPicture(next))) return true;
    }
  }
  return false;
}

const STRUCTURE = new Set(['table', 'ul', 'ol', 'dl', 'pre', 'code']);

/**
 * Blocks in document order: block elements with no block inside (one pass, bottom-up).
 * Inline elements beside blocks (a link loose in a wrapper) belong to no block.
 */
function leafBlocks(article: ElementNode, items: ReadonlySet<ElementNode>): Block[] {
  const blocks: Block[] = [];
  // returns whether `el` holds a block element
  const collect = (el: ElementNode, structured: boolean): boolean => {
    let holdsBlock = false;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const inner = structured || STRUCTURE.has(child.tag) || items.has(child);
      if (collect(child, inner)) holdsBlock = true;
      else if (LEAF_BLOCKS.has(child.tag)) {
        const runs = inner || HEADINGS.has(child.tag) ? [] : splitAtBreaks(child);
        if (runs.length > 1) for (const run of runs) blocks.push({ el: run, structured: false });
        else blocks.push({ el: child, structured: inner });
        holdsBlock = true;
      }
    }
    return holdsBlock;
  };
  collect(article, false);
  return blocks;
}

/**
 * Paragraphs written as `<br><br>` inside one element (old CMSs, hand-written HTML): each run
 * between two breaks is a paragraph to the reader, as Readability's replaceBrs makes it, so it
 * is judged as one. The runs are wrapped in `<p>` elements in place (the Markdown is the same:
 * a double break writes a paragraph break). Returns the runs, or [] when there is one run.
 */
function splitAtBreaks(el: ElementNode): ElementNode[] {
  const kids = el.children;
  let doubles = 0;
  for (let i = 0; i < kids.length; i++) if (isBreak(kids[i]) && nextIsBreak(kids, i)) doubles++;
  if (doubles === 0) return [];
  const runs: ElementNode[] = [];
  let run: Node[] = [];
  const flush = (): void => {
    if (run.some((n) => n.type === 'element' || n.text.trim())) {
      const p = createElement('p');
      p.parent = el;
      p.children = run;
      for (const n of run) n.parent = p;
      runs.push(p);
    }
    run = [];
  };
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i] as Node;
    if (isBreak(node) && nextIsBreak(kids, i)) {
      flush();
      // skip the rest of the chain of breaks and the spaces between them
      while (i + 1 < kids.length && (isBreak(kids[i + 1]) || isBlank(kids[i + 1]))) i++;
      continue;
    }
    run.push(node);
  }
  flush();
  if (runs.length < 2) return [];
  el.children = runs;
  return runs;
}

function isBreak(node: Node | undefined): boolean {
  return node?.type === 'element' && node.tag === 'br';
}

function isBlank(node: Node | undefined): boolean {
  return node?.type === 'text' && node.text.trim() === '';
}

/** The next node after `i` that is not blank text is a `<br>`. */
function nextIsBreak(kids: Node[], i: number): boolean {
  for (let k = i + 1; k < kids.length; k++) {
    if (isBlank(kids[k])) continue;
    return isBreak(kids[k]);
  }
  return false;
}

function isProse({ el, structured }: Block): boolean {
  if (structured || HEADINGS.has(el.tag)) return false;
  const length = textLength(el);
  return length >= SHORT && linkDensity(el, length) <= MAX_LINK_DENSITY;
}

function judge({ el: block, structured }: Block, covered: boolean): 'empty' | 'good' | 'bad' {
  const text = innerText(block);
  if (text.length === 0) return 'empty';
  // a heading opens or names a part of the text (jusText keeps those before good text)
  if (HEADINGS.has(block.tag)) return 'good';
  // cells, list items and code are structured text: short and without function words by
  // nature (data, ingredients, commands), so stopwords say nothing about them
  if (structured) return 'good';
  if (text.length >= SHORT) return 'good';
  if (linkDensity(block, text.length) > MAX_LINK_DENSITY) return 'bad';
  if (!covered) return 'good';
  const { density, words } = stopwordDensity(text);
  if (words === 0) return 'empty';
  return density < LOW_DENSITY ? 'bad' : 'good';
}
