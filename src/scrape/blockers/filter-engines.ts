/**
 * The compiled filter engines (built once by scripts/build-filters.ts, loaded at start-up) and
 * the two questions the scrape engines ask them: should this request be blocked, and which
 * elements should be hidden on this page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FiltersEngine, Request } from '@ghostery/adblocker';
import type { BlockSelection } from '../types.js';
import { ChatWidgetMatcher } from './chat-widgets.js';

/** The two engines the build writes (scripts/filters/filter-lists.ts says from which lists). */
export type EngineName = 'ads' | 'cookies';

/** manifest.json written next to the engines by the build. */
export interface FilterManifest {
  builtAt: string;
  engines: Record<
    string,
    {
      lists: Array<{
        id: number;
        title: string;
        version: string;
        timeUpdated: string;
        license: string;
        homepage: string;
        droppedLocalHostExceptions: string[];
      }>;
      networkFilters: number;
      cosmeticFilters: number;
      bytes: number;
      buildMs: number;
    }
  >;
}

/** Classes, ids and link targets found in a document: the keys of generic hiding rules. */
export interface DomTokens {
  classes: string[];
  ids: string[];
  hrefs: string[];
}

const FULL_CSS_CACHE = 32;

/** The cookie-notice list alone: what `cosmeticCss` hides of consent banners. */
export const COOKIE_NOTICES: BlockSelection = {
  ads: false,
  cookieBanners: true,
  chatWidgets: false,
};

/** Loaded engines; build with `loadFilterEngines` once and share (read-only after load). */
export class FilterEngines {
  readonly chat = new ChatWidgetMatcher();
  private readonly allTokens = new Map<EngineName, DomTokens>();
  private readonly base = new Map<EngineName, string[]>();
  private readonly memos = new Map<string, unknown>();
  /** Whole-list stylesheets by host and selection (~250 KB each, 30-100 ms to build). */
  private readonly fullCss = new Map<string, string>();

  constructor(
    readonly ads: FiltersEngine,
    readonly cookies: FiltersEngine,
    readonly manifest: FilterManifest,
  ) {}

  /**
   * A value derived from the engines (e.g. a compiled selector), computed once. Bounded by the
   * lists' size: keys come from the lists and the chat vendor table, never from pages.
   */
  memo<T>(key: string, make: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = make();
    this.memos.set(key, value);
    return value;
  }

  /** Least-recently-used cache of whole-list stylesheets, bounded to `FULL_CSS_CACHE` entries. */
  cachedFullCss(key: string, make: () => string): string {
    let css = this.fullCss.get(key);
    if (css !== undefined) {
      this.fullCss.delete(key);
    } else {
      css = make();
      if (this.fullCss.size >= FULL_CSS_CACHE) {
        const oldest = this.fullCss.keys().next().value;
        if (oldest !== undefined) this.fullCss.delete(oldest);
      }
    }
    this.fullCss.set(key, css);
    return css;
  }

  /** The engines a selection needs, in a fixed order. */
  selected(which: BlockSelection): Array<[EngineName, FiltersEngine]> {
    const out: Array<[EngineName, FiltersEngine]> = [];
    if (which.ads) out.push(['ads', this.ads]);
    if (which.cookieBanners) out.push(['cookies', this.cookies]);
    return out;
  }

  /**
   * The generic selectors no rule can unhide (the engine's "base stylesheet"): the same on
   * every page where generic hiding is allowed.
   */
  baseSelectors(name: EngineName): string[] {
    let selectors = this.base.get(name);
    if (!selectors) {
      const engine = name === 'ads' ? this.ads : this.cookies;
      // The stylesheet is `sel,\nsel,\n... { display: none !important; }` in chunks.
      const { styles } = engine.getCosmeticsFilters({
        url: 'https://base.invalid/',
        hostname: 'base.invalid',
        domain: 'base.invalid',
        getBaseRules: true,
        getRulesFromDOM: false,
        getRulesFromHostname: false,
        getInjectionRules: false,
        getExtendedRules: false,
      });
      selectors = styles
        .split(/\s*\{[^}]*\}\s*/)
        .flatMap((chunk) => chunk.split(',\n'))
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      this.base.set(name, selectors);
    }
    return selectors;
  }

  /**
   * Every class, id and href token some generic rule of `name` keys on. Passing them as the
   * "DOM" makes the engine return all its generic rules with its own exception handling,
   * for pages whose DOM is not known yet (the browser hides before the page has rendered).
   */
  everyGenericToken(name: EngineName): DomTokens {
    let tokens = this.allTokens.get(name);
    if (!tokens) {
      const engine = name === 'ads' ? this.ads : this.cookies;
      const classes = engine.cosmetics.classesIndex
        .getFilters()
        .map((f) => leadingName(f.getSelector()));
      const ids = engine.cosmetics.idsIndex.getFilters().map((f) => leadingName(f.getSelector()));
      const hrefs = engine.cosmetics.hrefsIndex.getFilters().map((f) => hrefValue(f.getSelector()));
      tokens = { classes: unique(classes), ids: unique(ids), hrefs: unique(hrefs) };
      this.allTokens.set(name, tokens);
    }
    return tokens;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}

/** `.name[...]`, `#name:not(...)` → `name` (the token ghostery indexes the rule by). */
function leadingName(selector: string): string {
  return /^[.#]([^\s[:.>+~,]+)/.exec(selector)?.[1]?.replace(/\\/g, '') ?? '';
}

function hrefValue(selector: string): string {
  return /href[*^$]?="([^"]*)"/.exec(selector)?.[1] ?? '';
}

/** Loads `ads.bin`, `cookies.bin` and `manifest.json` from `dir` (FILTERS_DIR). */
export async function loadFilterEngines(dir: string): Promise<FilterEngines> {
  const read = async (file: string): Promise<Buffer> => {
    try {
      return await readFile(join(dir, file));
    } catch (err) {
      throw new Error(
        `Filter engines missing (${join(dir, file)}): run \`npm run build\` (or \`node --import tsx scripts/build-filters.ts ${dir}\`) first`,
        { cause: err },
      );
    }
  };
  const [ads, cookies, manifest] = await Promise.all([
    read('ads.bin'),
    read('cookies.bin'),
    read('manifest.json'),
  ]);
  const engines = new FilterEngines(
    FiltersEngine.deserialize(new Uint8Array(ads)),
    FiltersEngine.deserialize(new Uint8Array(cookies)),
    JSON.parse(manifest.toString('utf8')) as FilterManifest,
  );
  // Derived tables built now (~0.2 s) rather than in the first request that needs them.
  for (const name of ['ads', 'cookies'] as const) {
    engines.everyGenericToken(name);
    engines.baseSelectors(name);
  }
  return engines;
}

/**
 * Runs in the page (`page.evaluate(collectDomTokensInPage)`): the classes, ids and link targets
 * present, so that `cosmeticCss(..., dom)` returns only the generic rules that can match
 * (a few KB instead of ~250 KB). Self-contained: Playwright serialises it by its source.
 */
export function collectDomTokensInPage(): DomTokens {
  const classes = new Set<string>();
  const ids = new Set<string>();
  const hrefs = new Set<string>();
  for (const el of Array.from(document.querySelectorAll('[class],[id],a[href]'))) {
    for (const c of Array.from(el.classList)) classes.add(c);
    if (el.id) ids.add(el.id);
    const href = el.tagName === 'A' ? el.getAttribute('href') : null;
    if (href) hrefs.add(href);
  }
  return { classes: [...classes], ids: [...ids], hrefs: [...hrefs] };
}

/**
 * Should this sub-request be blocked? `type` is Playwright's resource type ('script', 'image',
 * 'document', ...); `sourceUrl` the page (top-level document) URL. The caller must not ask
 * about the top-level navigation (the page itself is what was asked for): a 'document' whose
 * URL differs from `sourceUrl` is taken for a frame.
 */
export function matchesNetworkBlock(
  engines: FilterEngines,
  req: { url: string; type: string; sourceUrl: string },
  which: BlockSelection,
): boolean {
  if (req.url === req.sourceUrl && req.type === 'document') return false;
  if (!which.ads && !which.cookieBanners && !which.chatWidgets) return false;
  // Playwright calls frames' documents 'document' too; a document other than the page is a
  // frame, and `$subdocument` rules only apply to the 'sub_frame' type.
  const type = req.type === 'document' ? 'sub_frame' : req.type;
  const request = Request.fromRawDetails({
    url: req.url,
    sourceUrl: req.sourceUrl,
    type: type as Parameters<typeof Request.fromRawDetails>[0]['type'],
  });
  if (request.isMainFrame()) return false;
  if (which.chatWidgets && engines.chat.matchesHost(request.hostname, () => pathOf(req.url))) {
    return true;
  }
  return engines.selected(which).some(([, engine]) => engine.match(request).match);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '/';
  }
}

/** hostname and registrable domain of a page, as the engines want them. */
export function pageHost(pageUrl: string): { hostname: string; domain: string } {
  const r = Request.fromRawDetails({ url: pageUrl });
  return { hostname: r.hostname, domain: r.domain || r.hostname };
}

/**
 * A stylesheet hiding (`display: none !important`) what the selected lists and the chat vendor
 * list hide on `pageUrl`. With `dom` (from `collectDomTokensInPage`) it carries only the generic
 * rules that can match the page (~0.3 ms); without it, every generic rule (~250 KB of CSS,
 * ~10-40 ms), for hiding before the page has rendered. Scriptlets and procedural (extended)
 * rules are not included.
 */
export function cosmeticCss(
  engines: FilterEngines,
  pageUrl: string,
  which: BlockSelection,
  dom?: DomTokens,
): string {
  const { hostname, domain } = pageHost(pageUrl);
  const build = (): string => {
    const parts: string[] = [];
    for (const [name, engine] of engines.selected(which)) {
      const tokens = dom ?? engines.everyGenericToken(name);
      const { styles } = engine.getCosmeticsFilters({
        url: pageUrl,
        hostname,
        domain,
        ...tokens,
        getBaseRules: true,
        getInjectionRules: false,
        getExtendedRules: false,
        getRulesFromDOM: true,
        getRulesFromHostname: true,
      });
      if (styles) parts.push(styles);
    }
    if (which.chatWidgets) {
      parts.push(`${engines.chat.selectors.join(',\n')} { display: none !important; }`);
    }
    return parts.join('\n\n');
  };
  if (dom) return build();
  // Without the DOM the result depends on the host, the selection and the `$generichide` /
  // `$elemhide` exceptions the URL hits (those can be path-scoped): pages of one site reuse it.
  const page = Request.fromRawDetails({ url: pageUrl, hostname, domain });
  const exceptions = engines
    .selected(which)
    .flatMap(([, engine]) => engine.hideExceptions.matchAll(page).map((f) => f.getId()));
  const key = `${Number(which.ads)}${Number(which.cookieBanners)}${Number(which.chatWidgets)} ${hostname} ${exceptions.join(',')}`;
  return engines.cachedFullCss(key, build);
}
