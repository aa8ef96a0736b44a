/**
 * HTML → Markdown of a page's main content (contract 2.15). Pure and synchronous.
 *
 * Pipeline: htmlparser2 → light tree → chrome removal → Readability-style extraction
 * (retried with fewer heuristics when it finds too little) → hand-written serializer.
 * A page where extraction finds too little falls back to the cleaned whole body.
 *
 * The public surface: htmlToMarkdown (with `mainContent: false`, the whole page instead),
 * extractMainContent (the same extraction as HTML and Markdown, for the document output)
 * and streamTags (the linear tag stream the light tree is built on).
 */
import { isHidden, removeChrome } from './boilerplate.js';
import { dropCardButtons } from './card-buttons.js';
import { dropCardCopies } from './card-copies.js';
import { showCardHiddenText } from './card-hidden-text.js';
import { dropCloakedForms } from './cloaked-forms.js';
import { cloneElement } from './clone.js';
import { dropClassHidden } from './collection-hidden.js';
import { showsCollection } from './collection-page.js';
import { findHintedContainer } from './content-hints.js';
import {
  createElement,
  type ElementNode,
  findFirst,
  type Node,
  type ParsedDocument,
  parseDocument,
  removeNodes,
} from './dom.js';
import { type ExtractFlags, grabArticle } from './extract.js';
import { findHeadline, ogTitle, prependHeadline } from './headline.js';
import { dropHiddenTextExcerpts } from './hidden-excerpts.js';
import { dropItemLabels } from './item-labels.js';
import { collapsedText, innerText, linkDensity, textFigures, textLength } from './measure.js';
import { resolveNoscript } from './noscript.js';
import { pageRegion } from './page-region.js';
import { prepareArticle } from './prepare-article.js';
import { addOnGrids, pageProductNames, showAddOns } from './product-addons.js';
import { openPanels, showProductBlocks } from './product-blocks.js';
import { dropProductExtras } from './product-extras.js';
import { findProductGrids } from './product-grid.js';
import { dropAboveProductName, dropBesideProduct, isProductPage } from './product-page.js';
import { dropRepeatedBlocks } from './repeated-blocks.js';
import { dropRepeatedTables } from './repeated-tables.js';
import { collectScorable, type FlagUse } from './scorable.js';
import { showScriptShownContent } from './script-shown.js';
import { MarkdownWriter, type UrlResolver } from './serialize.js';
import { collectSite, type Site } from './site-labels.js';
import { mayHoldStreamedSegments, placeStreamedSegments } from './streamed-segments.js';
import { productDescription, structuredBody } from './structured-body.js';
import { openTabPanels } from './tab-panels.js';
import type { TagHandler } from './tag-stream.js';
import { dropTeaserRuns } from './teaser-runs.js';
import { isDiscussionPage, isThreadPage } from './thread-page.js';
import { dropTrailingSections } from './trailing-sections.js';
import { TreeStats } from './tree-stats.js';
import { trimArticle } from './trim-article.js';
import { type Surroundings, shownGrids, widerContent } from './wider-content.js';

/**
 * htmlparser2's Parser events (open, text, close, with HTML's implied closes) in linear time;
 * comments, CDATA and processing instructions are skipped. For other readers of page HTML
 * that must survive hostile nesting (the document output builds its tree on it).
 */
export { streamTags, type TagHandler } from './tag-stream.js';

/** An article shorter than this (characters of text) triggers the next, laxer attempt. */
const ENOUGH_TEXT = 500;
/** Below this, extraction "found too little" and the whole cleaned body is used. */
const TOO_LITTLE_TEXT = 140;
/** The whole named container replaces the extraction when it holds this many times its text. */
const WIDE_HINT = 2;
/**
 * A repeated block holding this share of the content is a copy of the story (one per
 * breakpoint); 0.2 takes the two and three copies seen, not a repeated FAQ or code sample.
 */
const STORY_COPY_SHARE = 0.2;
const ATTEMPTS: ExtractFlags[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];

export interface MarkdownOptions {
  /**
   * Convert the page's main content only (default true). False: the whole body, with hidden
   * elements removed but navigation, header, footer and forms' text kept (the Firecrawl
   * door's onlyMainContent=false).
   */
  mainContent?: boolean;
  /**
   * Main content only: the page's headline (headline.ts) as the first line `# ...`, once
   * (default true). Users want to know what a page is; the shared scorers leave a leading
   * `# ` line out of the score.
   */
  headline?: boolean;
  /**
   * Handed every event of the page's tag stream as it is parsed, so a caller that wants
   * other facts of the page (its metadata, its links) need not tokenize it again.
   */
  tap?: TagHandler;
}

/** Never throws: returns '' for empty or unusable input, best effort otherwise. */
export function htmlToMarkdown(
  html: string,
  pageUrl: string,
  options: MarkdownOptions = {},
): string {
  try {
    if (typeof html !== 'string' || html.length === 0) return '';
    const doc = parseDocument(html, options.tap);
    resolveNoscript(doc.root);
    const resolver = urlResolver(pageUrl, doc.baseHref);
    const body = findFirst(doc.root, 'body') ?? doc.root;
    const chosen =
      options.mainContent === false
        ? visibleBody(body)
        : mainContent(html, doc, body, options.headline !== false);
    return new MarkdownWriter(resolver).render(chosen);
  } catch {
    return '';
  }
}

/**
 * The main content htmlToMarkdown converts, as HTML, with its Markdown: one extraction for
 * both. The HTML holds the page's URLs as written (resolve them against the page's base);
 * scripts, styles, iframes, SVG and form controls are not in it. Never throws: empty
 * strings for empty or unusable input.
 */
export function extractMainContent(
  html: string,
  pageUrl: string,
  options: Pick<MarkdownOptions, 'headline'> = {},
): { html: string; markdown: string } {
  try {
    if (typeof html !== 'string' || html.length === 0) return { html: '', markdown: '' };
    const doc = parseDocument(html);
    resolveNoscript(doc.root);
    const body = findFirst(doc.root, 'body') ?? doc.root;
    const chosen = mainContent(html, doc, body, options.headline !== false);
    const markdown = new MarkdownWriter(urlResolver(pageUrl, doc.baseHref)).render(chosen);
    return { html: toHtml(chosen), markdown };
  } catch {
    return { html: '', markdown: '' };
  }
}

/**
 * The page's main content, its headline first when `withHeadline`. A page whose markup as
 * sent yields too little (TOO_LITTLE_TEXT) is read again with React's streamed segments in
 * place (streamed-segments.ts): its content is markup a script moves into the page, sent
 * hidden at the body's end, and what shows without it is a header's menus. Only then: the
 * late segments of other pages are mostly what sits beside the content (recommendation
 * rows, a footer, comment previews a style sheet clamps to a line), which the page as sent
 * keeps hidden.
 */
function mainContent(
  html: string,
  doc: ParsedDocument,
  body: ElementNode,
  withHeadline: boolean,
): ElementNode {
  let page = pageContent(doc, body, withHeadline);
  if (textLength(page.content) < TOO_LITTLE_TEXT && mayHoldStreamedSegments(html)) {
    const again = parseDocument(html);
    resolveNoscript(again.root);
    if (placeStreamedSegments(again.root) > 0) {
      const retry = pageContent(again, findFirst(again.root, 'body') ?? again.root, withHeadline);
      if (textLength(retry.content) > textLength(page.content)) page = retry;
    }
  }
  if (withHeadline) prependHeadline(page.content, page.headline);
  return page.content;
}

/** The main content (without the headline) and the headline found. */
function pageContent(
  doc: ParsedDocument,
  body: ElementNode,
  withHeadline: boolean,
): { content: ElementNode; headline: string } {
  const title = doc.title;
  const site = collectSite(doc.root, body);
  const saysProduct = isProductPage(doc.root, doc.jsonLd);
  // the headline is looked for on the page as parsed: extraction removes it; on a product
  // page it is the product's name, which marks where the product starts
  const headline =
    withHeadline || saysProduct
      ? findHeadline(body, { title, ogTitle: ogTitle(doc.root), siteNames: site.names })
      : '';
  const { content: extracted, product, shop } = extractedContent(doc, body, site, saysProduct);
  let content = extracted;
  // responsive shop templates write the buy box and the description twice; replies quote
  // the posts they answer and repeat their authors' signatures; elsewhere only a copy of
  // a fifth of the text or more is one (a site builder's story written per breakpoint)
  if (product || isDiscussionPage(doc.root, doc.jsonLd)) dropRepeatedBlocks(content);
  else dropRepeatedBlocks(content, STORY_COPY_SHARE);
  // a spec table printed under two tabs, a label or two reworded
  if (product) dropRepeatedTables(content);
  // a folded text's visible opening, set before the whole text its class hides
  dropHiddenTextExcerpts(content);
  // a blog roll or "more ideas" cards after the story (a product page's related items go
  // earlier, by their names: product-page.ts)
  if (!product) dropTeaserRuns(content);
  if (doc.jsonLd.length > 0) content = structuredFallback(content, doc.jsonLd) ?? content;
  if (product && doc.jsonLd.length > 0) content = describedProduct(content, doc.jsonLd) ?? content;
  // what a product page sets above its name (breadcrumbs, promotions) is not the product
  if (product && headline) dropAboveProductName(content, body, headline);
  // a shop's cards name their products' attributes (condition, shipping, brand) in lines
  // that recur from card to card: there they describe the product, not the template
  if (!shop) dropItemLabels(content);
  return { content, headline };
}

/**
 * The body the page gives as schema.org data (structured-body.ts), when its markup yields
 * next to nothing (a page rendered from a script): taken only when the extraction holds
 * under ENOUGH_TEXT characters and the data at least that and twice the extraction.
 */
function structuredFallback(content: ElementNode, jsonLd: readonly string[]): ElementNode | null {
  const length = textLength(content);
  if (length >= ENOUGH_TEXT) return null;
  const html = structuredBody(jsonLd);
  if (html.length < ENOUGH_TEXT) return null;
  const data = createElement('div');
  data.children = parseDocument(html).root.children;
  for (const child of data.children) child.parent = data;
  const dataLength = textLength(data);
  return dataLength >= ENOUGH_TEXT && dataLength >= 2 * length ? data : null;
}

/**
 * The product's description from its schema.org data, when the extraction is short and
 * does not hold it: the page is a script's shell, and what the extraction found beside the
 * product (a notice, a shipping banner) is not the product.
 */
function describedProduct(content: ElementNode, jsonLd: readonly string[]): ElementNode | null {
  if (textLength(content) >= ENOUGH_TEXT) return null;
  const html = productDescription(jsonLd);
  if (html.length < TOO_LITTLE_TEXT) return null;
  const data = createElement('div');
  data.children = parseDocument(html).root.children;
  for (const child of data.children) child.parent = data;
  if (textLength(data) < TOO_LITTLE_TEXT) return null;
  const opening = innerText(data).slice(0, DESCRIPTION_OPENING);
  return innerText(content).includes(opening) ? null : data;
}

/** Characters of the description's opening looked for in the extraction. */
const DESCRIPTION_OPENING = 60;

/**
 * The extracted content, whether the page was read as a product page (one that says it is
 * a product, `saysProduct`, product-page.ts, unless it shows a collection's grid), and
 * whether it is a shop's page (a product, or a grid of priced cards).
 */
function extractedContent(
  doc: ParsedDocument,
  body: ElementNode,
  site: Site,
  saysProduct: boolean,
): { content: ElementNode; product: boolean; shop: boolean } {
  const pageTextLength = textLength(body);
  showScriptShownContent(body, pageTextLength);
  // a framework's dialogs (a "notify me" form and its states) wait cloaked for a click
  dropCloakedForms(body, pageTextLength);
  // looked for before chrome goes: shops print the price for screen readers only, or in
  // an element hidden from them beside its visible twin
  const grids = findProductGrids(body);
  const found = grids.best;
  // a product's add-ons (a game's packs) fill a priced grid named after it: not a collection
  const names = saysProduct ? pageProductNames(doc.root, doc.jsonLd) : [];
  const addOns = saysProduct ? addOnGrids(grids.grids, names) : new Map<ElementNode, string[]>();
  const onlyAddOns = addOns.size > 0 && addOns.size === grids.grids.length;
  const product = saysProduct && (onlyAddOns || !showsCollection(doc.root, doc.jsonLd, grids));
  if (product) showAddOns(addOns);
  const grid = product ? null : (found?.el ?? null);
  if (!product) showCardHiddenText(grid ? [...grids.grids, grid] : grids.grids);
  // a page's collapsed panels (a service's answers, a category's buying guide, a reference's
  // folded sections) are its text, as a product's are (showProductBlocks opens those)
  const opened = product ? new Set<ElementNode>() : openPanels(body, false);
  if (grid) {
    // the grid's page hides, by class, copies of its products (a comparison drawer, quick
    // views); its cards write a title or a price once per state (a theme's layouts) and
    // carry button-styled links ("add to cart") that chrome removal does not know
    dropClassHidden(body, grid, grids.grids, opened);
    dropCardCopies([...grids.grids, grid]);
    dropCardButtons([...grids.grids, grid]);
  }
  const all = product ? [] : grids.grids;
  const content = chosenContent(
    doc,
    body,
    site,
    product,
    { grid, grids: all },
    pageTextLength,
    names,
  );
  return { content, product, shop: product || found !== null };
}

function chosenContent(
  doc: ParsedDocument,
  body: ElementNode,
  site: Site,
  product: boolean,
  shown: Pick<Surroundings, 'grid' | 'grids'>,
  pageTextLength: number,
  productNames: readonly string[],
): ElementNode {
  const { root, title } = doc;
  if (product) showProductBlocks(body);
  else openTabPanels(body);
  removeChrome(body, pageTextLength, !product && !shown.grid);
  if (product) {
    dropBesideProduct(body, pageTextLength);
    dropProductExtras(body, pageTextLength);
    dropTrailingSections(body, productNames);
  }
  const commentsAreContent = isThreadPage(body);
  const region = pageRegion(root, body);

  let last: Required<ExtractFlags> | null = null;
  const { article: best, length: bestLength } = longestAttempt(
    (attempt) => {
      // a retry that only turns off flags the last pass never acted on would repeat it
      if (last && !differsInUsedFlag(last, attempt)) return null;
      const flags: Required<ExtractFlags> = {
        ...attempt,
        commentsAreContent,
        used: { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
      };
      last = flags;
      return grabArticle(cloneElement(body), title, flags);
    },
    site,
    textLength(body),
  );
  // The container the page names as its text (content-hints.ts), scored on its own: taken
  // when it holds at least as much as the scorer found in the whole page (the scorer had
  // picked a part of it, or a block beside it), counted in all or outside links (a list of
  // teasers beside the text holds its titles and "read on" links). A shorter hint is not
  // trusted: templates often split the story over several named columns and the first one
  // is only a part.
  const container = findHintedContainer(body, new TreeStats(), TOO_LITTLE_TEXT);
  const ownText = (el: ElementNode, n: number) => n * (1 - linkDensity(el, n));
  // the extraction inside the container keeps at most the container's text: when that is
  // under both of the whole page's figures, it cannot be chosen and is not run
  const hinted =
    container && canWin(textLength(container), best, bestLength, ownText)
      ? hintedArticle(container, title, site)
      : null;
  let chosen: ElementNode | null = null;
  if (hinted) {
    const length = textLength(hinted);
    if (
      length >= TOO_LITTLE_TEXT &&
      (length >= bestLength || (best && ownText(hinted, length) >= ownText(best, bestLength)))
    ) {
      chosen = hinted;
    }
  }
  if (!chosen && best && bestLength >= TOO_LITTLE_TEXT) chosen = best;
  if (chosen && container) {
    // The scorer keeps the best-scoring block of the named container and its siblings; when
    // the page's own text container, cleaned as a whole, holds twice that and is prose (not
    // mostly links), the scorer took a part of the text (a recipe's FAQ without the recipe
    // card, one of several text widgets): the whole container is the content.
    const chosenLength = textLength(chosen);
    if (textLength(container) >= WIDE_HINT * chosenLength) {
      const wide = cleanedContainer(container, title, site);
      const wideLength = textLength(wide);
      if (wideLength >= WIDE_HINT * chosenLength && linkDensity(wide, wideLength) <= 0.3) {
        return shownGrids(wide, { body, ...shown });
      }
    }
  }
  if (chosen) return widerContent(chosen, { doc, body, site, product, region, ...shown });
  // the fallback is trimmed like an extracted article: its related links, credits and named
  // boilerplate are as little content there
  const gridded = shownGrids(createElement('div'), { body, ...shown });
  if (gridded.children.length > 0) return gridded;
  const whole = wholeBody(body);
  trimArticle(whole, site);
  return whole;
}

/** Whether an extraction holding at most `most` characters could beat the page's best. */
function canWin(
  most: number,
  best: ElementNode | null,
  bestLength: number,
  ownText: (el: ElementNode, n: number) => number,
): boolean {
  if (most < TOO_LITTLE_TEXT) return false;
  return !best || most >= bestLength || most >= ownText(best, bestLength);
}

/**
 * The hinted container whole, cleaned as an extracted article is (unlikely candidates,
 * Readability's conditional cleaning, trimArticle) but without choosing a block in it.
 */
function cleanedContainer(container: ElementNode, title: string, site: Site): ElementNode {
  const scope = createElement('body');
  const copy = cloneElement(container, scope);
  scope.children = [copy];
  const flags = { stripUnlikely: true, weightClasses: true, cleanConditionally: true };
  collectScorable(scope, title, flags);
  prepareArticle(copy, flags);
  trimArticle(copy, site);
  return copy;
}

/**
 * Extraction restricted to the hinted container, retried with fewer heuristics as the
 * whole page's is: page builders (Elementor and the like) wrap every text block in
 * "widget" classes, which Readability's class weights read as chrome.
 */
function hintedArticle(container: ElementNode, title: string, site: Site): ElementNode {
  let last: TrackedFlags | null = null;
  const { article } = longestAttempt(
    (attempt) => {
      // as on the whole page: a retry that turns off only flags the last pass never acted on
      // would repeat it (the longest result is kept, so a repeat never changes the choice)
      if (last && !differsInUsedFlag(last, attempt)) return null;
      last = {
        ...attempt,
        used: { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
      };
      const scope = createElement('body');
      scope.children = [cloneElement(container, scope)];
      return grabArticle(scope, title, last);
    },
    site,
    textLength(container),
  );
  return article ?? createElement('div');
}

/**
 * Extraction retried with fewer heuristics (ATTEMPTS) until one yields ENOUGH_TEXT; each
 * result trimmed, the longest kept. `extract` returns null for an attempt it skips. The
 * attempt after the first to reach ENOUGH_TEXT is run too: a strict pass that strips one
 * unlikely-named box can still keep 500 characters of a list's first block, while the laxer
 * pass finds the whole list around it (holdsAndAdds). `within` is the text length of what
 * `extract` reads: a result holding half of it cannot be doubled, so that look is skipped
 * (it cost most pages a second extraction for nothing).
 */
function longestAttempt(
  extract: (attempt: ExtractFlags) => ElementNode | null,
  site: Site,
  within: number,
): { article: ElementNode | null; length: number } {
  let article: ElementNode | null = null;
  let length = -1;
  let enough = false;
  for (const attempt of ATTEMPTS) {
    const candidate = extract(attempt);
    if (!candidate) continue;
    trimArticle(candidate, site);
    const candidateLength = textLength(candidate);
    if (enough) {
      // the one look past ENOUGH_TEXT: the laxer pass is taken only when it holds the
      // stricter one's text and much more text outside links (the whole list of which the
      // strict pass kept one block)
      if (article && holdsAndAdds(candidate, candidateLength, article, length)) {
        article = candidate;
        length = candidateLength;
      }
      break;
    }
    if (candidateLength > length) {
      article = candidate;
      length = candidateLength;
    }
    if (candidateLength >= ENOUGH_TEXT) {
      if (2 * length > within) break;
      enough = true;
    }
  }
  return { article, length };
}

/** Text this long or longer says which passage a text node is (holdsAndAdds). */
const PASSAGE = 20;

/**
 * Whether `wider` holds most of `narrower`'s passages and twice its text outside links: the
 * laxer pass found the block the stricter one kept and what surrounds it, not another block.
 */
function holdsAndAdds(
  wider: ElementNode,
  widerLength: number,
  narrower: ElementNode,
  narrowerLength: number,
): boolean {
  if (widerLength < 2 * narrowerLength) return false;
  const own = (el: ElementNode, n: number) => n * (1 - linkDensity(el, n));
  if (own(wider, widerLength) < 2 * own(narrower, narrowerLength)) return false;
  const held = passages(wider);
  let total = 0;
  let found = 0;
  for (const text of passages(narrower)) {
    total += text.length;
    if (held.has(text)) found += text.length;
  }
  return total > 0 && found >= 0.8 * total;
}

function passages(el: ElementNode, out: Set<string> = new Set()): Set<string> {
  for (const child of el.children) {
    if (child.type === 'element') passages(child, out);
    else if (textFigures(child).length >= PASSAGE) out.add(collapsedText(child));
  }
  return out;
}

/** Flags of a pass that notes which of them it acted on. */
type TrackedFlags = ExtractFlags & { used: FlagUse };

function differsInUsedFlag(ran: TrackedFlags, next: ExtractFlags): boolean {
  return (
    (ran.stripUnlikely !== next.stripUnlikely && ran.used.stripUnlikely) ||
    (ran.weightClasses !== next.weightClasses && ran.used.weightClasses) ||
    (ran.cleanConditionally !== next.cleanConditionally && ran.used.cleanConditionally)
  );
}

/** The fallback: the body without page chrome (header, footer, asides). */
function wholeBody(body: ElementNode): ElementNode {
  const walk = (el: ElementNode): void => {
    el.children = el.children.filter(
      (c) =>
        c.type !== 'element' || (c.tag !== 'header' && c.tag !== 'footer' && c.tag !== 'aside'),
    );
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(body);
  return body;
}

/** The whole body without its hidden elements (mainContent: false). */
function visibleBody(body: ElementNode): ElementNode {
  const hidden: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const c of el.children) {
      if (c.type !== 'element') continue;
      if (isHidden(c)) hidden.push(c);
      else walk(c);
    }
  };
  walk(body);
  removeNodes(hidden);
  return body;
}

const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Light tree → HTML; the element itself only when it is a real one (not the parse root). */
function toHtml(node: Node): string {
  if (node.type === 'text') return escapeText(node.text);
  let inner = '';
  for (const child of node.children) inner += toHtml(child);
  if (node.tag === '#root') return inner;
  let attrs = '';
  for (const [name, value] of Object.entries(node.attrs))
    attrs += ` ${name}="${escapeAttr(value)}"`;
  return VOID_TAGS.has(node.tag)
    ? `<${node.tag}${attrs}>`
    : `<${node.tag}${attrs}>${inner}</${node.tag}>`;
}

/** Resolves against `<base href>` (itself resolved against the page URL), then the page URL. */
function urlResolver(pageUrl: string, baseHref: string | null): UrlResolver {
  let base: URL | null = null;
  try {
    base = new URL(pageUrl);
  } catch {
    base = null;
  }
  if (baseHref) {
    try {
      base = new URL(baseHref, base ?? undefined);
    } catch {
      // an unusable <base> is ignored, as browsers do
    }
  }
  return (url) => {
    try {
      return new URL(url, base ?? undefined).href;
    } catch {
      return null;
    }
  };
}
