/**
 * render=false blocking: rewrites fetched HTML without the ads, cookie banners and chat widgets
 * the caller asked to block. Cosmetic rules are looked up by the page's hostname and the classes,
 * ids and links present (the engine's index), so a page only pays for the selectors that can
 * match it; sub-resources are removed when the network rules (or the chat vendor list) would
 * block their URL in a browser. The output is the input with the removed elements cut out
 * (by their source offsets): untouched markup stays byte for byte as fetched.
 */
import type { FiltersEngine } from '@ghostery/adblocker';
import { DomHandler, DomUtils, Parser } from 'htmlparser2';
import type { BlockSelection } from '../types.js';
import {
  type CompiledSelector,
  compileSelector,
  type El,
  type ElementIndex,
  indexElements,
  selectInto,
} from './element-index.js';
import {
  type DomTokens,
  type FilterEngines,
  matchesNetworkBlock,
  pageHost,
} from './filter-engines.js';

/** Elements that load a URL, the attribute holding it, and the request type a browser uses. */
const URL_ELEMENTS: ReadonlyArray<readonly [tag: string, attr: string, type: string]> = [
  ['script', 'src', 'script'],
  ['iframe', 'src', 'sub_frame'],
  ['frame', 'src', 'sub_frame'],
  ['img', 'src', 'image'],
  ['input', 'src', 'image'],
  ['embed', 'src', 'object'],
  ['object', 'data', 'object'],
  ['video', 'src', 'media'],
  ['audio', 'src', 'media'],
  ['source', 'src', 'media'],
  ['link', 'href', 'stylesheet'],
];

/** Inline loader snippets (Intercom, GTM, gpt.js...) are small; bundles are not scanned. */
const MAX_INLINE_SCRIPT = 8 * 1024;
const INLINE_URL = /(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'`\\)]*/gi;
const JS_TYPES = new Set(['', 'text/javascript', 'application/javascript', 'module']);

function linkType(el: El): string {
  const rel = (el.attribs.rel ?? '').toLowerCase();
  if (rel.includes('stylesheet')) return 'stylesheet';
  if (rel.includes('preload') || rel.includes('prefetch')) {
    const as = (el.attribs.as ?? '').toLowerCase();
    if (as === 'style') return 'stylesheet';
    if (as === 'script' || as === 'image' || as === 'font') return as;
    return rel.includes('modulepreload') ? 'script' : 'other';
  }
  return rel.includes('icon') ? 'image' : 'other';
}

function resolveUrl(raw: string, base: string): string | null {
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function domTokens(index: ElementIndex): DomTokens {
  const hrefs = new Set<string>();
  for (const a of index.byTag.get('a') ?? []) if (a.attribs.href) hrefs.add(a.attribs.href);
  return { classes: [...index.byClass.keys()], ids: [...index.byId.keys()], hrefs: [...hrefs] };
}

/** Plain CSS selectors the engine hides on this page (no scriptlets, no procedural ones). */
function hidingSelectors(
  engines: FilterEngines,
  name: 'ads' | 'cookies',
  engine: FiltersEngine,
  pageUrl: string,
  tokens: DomTokens,
): string[] {
  const { hostname, domain } = pageHost(pageUrl);
  const { matches, allowGenericHides } = engine.matchCosmeticFilters({
    url: pageUrl,
    hostname,
    domain,
    ...tokens,
    getRulesFromDOM: true,
    getRulesFromHostname: true,
    getInjectionRules: false,
    getExtendedRules: false,
  });
  const selectors: string[] = [];
  for (const { filter, exception } of matches) {
    if (filter === undefined || exception !== undefined) continue;
    if (filter.isScriptInject() || filter.isExtended() || filter.hasCustomStyle()) continue;
    selectors.push(filter.getSelector());
  }
  if (allowGenericHides) selectors.push(...engines.baseSelectors(name));
  return selectors;
}

function selectAllInto(
  engines: FilterEngines,
  selectors: Iterable<string>,
  index: ElementIndex,
  doomed: Set<El>,
): void {
  for (const selector of selectors) {
    // Compiled selectors are kept with the engines: the same ones recur on every page.
    const test = engines.memo<CompiledSelector | null>(`css:${selector}`, () =>
      compileSelector(selector),
    );
    if (test) selectInto(selector, test, index, doomed);
  }
}

function blockedBySource(
  index: ElementIndex,
  pageUrl: string,
  which: BlockSelection,
  engines: FilterEngines,
  doomed: Set<El>,
): void {
  // Pages repeat URLs (icons, pixels, the same ad script per slot): ask once per URL and type.
  const seen = new Map<string, boolean>();
  const blocked = (url: string | null, type: string): boolean => {
    if (url === null) return false;
    const key = `${type} ${url}`;
    let verdict = seen.get(key);
    if (verdict === undefined) {
      verdict = matchesNetworkBlock(engines, { url, type, sourceUrl: pageUrl }, which);
      seen.set(key, verdict);
    }
    return verdict;
  };
  for (const [tag, attr, type] of URL_ELEMENTS) {
    for (const el of index.byTag.get(tag) ?? []) {
      const raw = el.attribs[attr];
      if (raw === undefined || doomed.has(el)) continue;
      if (blocked(resolveUrl(raw, pageUrl), tag === 'link' ? linkType(el) : type)) doomed.add(el);
    }
  }
  for (const el of index.byTag.get('script') ?? []) {
    if (el.attribs.src !== undefined || doomed.has(el)) continue;
    if (!JS_TYPES.has((el.attribs.type ?? '').toLowerCase())) continue;
    const text = DomUtils.textContent(el);
    if (text.length > MAX_INLINE_SCRIPT) continue;
    const urls = text.match(INLINE_URL) ?? [];
    if (urls.some((u) => blocked(resolveUrl(u, pageUrl), 'script'))) doomed.add(el);
  }
}

const VOID = new Set([
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

type Node = El['children'][number];

/** End offset (inclusive) of an element's start tag: the first `>` outside quoted values. */
function startTagEnd(html: string, from: number): number {
  let quote = '';
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return html.length - 1;
}

/**
 * Where a node really ends in the source. htmlparser2 puts an implicitly closed element's end
 * (`<p>a<p>b`, `<li>a<li>b`, `<p>a</div>`) after the tag that closed it; cutting there would
 * take that tag too, so such an element ends with its last child, or its own start tag.
 */
function nodeEnd(html: string, node: Node): number {
  const end = node.endIndex ?? html.length - 1;
  if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return end;
  const el = node as El;
  if (VOID.has(el.name)) return end;
  const close = html.lastIndexOf('</', end);
  if (
    close !== -1 &&
    /^<\/([^\s>]+)\s*>$/.exec(html.slice(close, end + 1))?.[1]?.toLowerCase() === el.name
  ) {
    return end;
  }
  const last = el.children[el.children.length - 1];
  return last ? nodeEnd(html, last) : startTagEnd(html, el.startIndex ?? 0);
}

/** Cuts the elements (and their subtrees) out of the source by their offsets. */
function cutOut(html: string, doomed: Set<El>): string {
  const ranges: Array<[number, number]> = [];
  for (const el of doomed) {
    let parent = el.parent;
    while (parent && !doomed.has(parent as El)) parent = parent.parent;
    if (parent) continue; // an ancestor goes anyway
    if (el.startIndex === null) continue;
    ranges.push([el.startIndex, nodeEnd(html, el) + 1]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    if (from < at) continue;
    parts.push(html.slice(at, from));
    at = to;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/**
 * Chromium's HTML parser nests no deeper than this (deeper start tags become siblings).
 * Here parsing (htmlparser2's open-element stack), selector matching and the cut all cost
 * O(depth) per element, so a page of a few MB of unclosed `<div>`s would hold the event
 * loop for minutes: such a page is not parsed past this depth.
 */
export const MAX_STATIC_DEPTH = 512;

class TooDeep extends Error {}

class DepthBoundHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.tagStack.length > MAX_STATIC_DEPTH) throw new TooDeep();
    super.onopentag(name, attribs);
  }
}

/** htmlparser2's `parseDocument` with source offsets, or null past MAX_STATIC_DEPTH. */
function parseBounded(html: string): DomHandler['root'] | null {
  const handler = new DepthBoundHandler(undefined, {
    withStartIndices: true,
    withEndIndices: true,
  });
  try {
    new Parser(handler).end(html);
  } catch (error) {
    if (error instanceof TooDeep) return null;
    throw error;
  }
  return handler.root;
}

/**
 * Returns `html` without the elements the selection blocks: cosmetic hiding rules of the
 * selected lists for this page, sub-resources their network rules block, chat vendors' scripts
 * and containers. With nothing selected, or on a page nested deeper than any browser builds
 * (MAX_STATIC_DEPTH), the input is returned as is.
 */
export function stripBlocked(
  html: string,
  pageUrl: string,
  which: BlockSelection,
  engines: FilterEngines,
): string {
  if (!which.ads && !which.cookieBanners && !which.chatWidgets) return html;
  const doc = parseBounded(html);
  if (!doc) return html;
  const index = indexElements(doc);
  const doomed = new Set<El>();
  const tokens = domTokens(index);
  for (const [name, engine] of engines.selected(which)) {
    selectAllInto(engines, hidingSelectors(engines, name, engine, pageUrl, tokens), index, doomed);
  }
  if (which.chatWidgets) selectAllInto(engines, engines.chat.selectors, index, doomed);
  blockedBySource(index, pageUrl, which, engines, doomed);
  return doomed.size === 0 ? html : cutOut(html, doomed);
}
