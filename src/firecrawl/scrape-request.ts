/**
 * Firecrawl's scrape options (v1 and v2, as its API reference and SDK send them) translated
 * into the pipeline's ScrapeOptions, with Firecrawl's defaults and its cross-field rules.
 * Pure: the door has validated the shape already (api/firecrawl/schemas/); this decides the
 * meaning. Failures are catalog errors (400), which the door answers in Firecrawl's envelope.
 */
import { appError } from '../errors.js';
import { assertSelectors } from '../scrape/output/index.js';
import { parseHttpUrlParam } from '../scrape/params/http-url.js';
import { selectorProblem } from '../scrape/params/instruction-selectors.js';
import { DEFAULT_SCRAPE_OPTIONS, LIMITS } from '../scrape/params/param-fields.js';
import type {
  DocumentRequest,
  Instruction,
  ScrapeOptions,
  ScreenshotRequest,
  WaitUntil,
} from '../scrape/types.js';
import type { ChangeTrackingRequest } from './change-tracking.js';

export type FirecrawlVersion = 'v1' | 'v2';

export type FormatOption = string | ({ type: string } & Record<string, unknown>);

export interface ViewportOption {
  width: number;
  height: number;
}

export type ActionOption = { type: string } & Record<string, unknown>;

/** The scrape options of a body, as the door's schema lets them through. */
export interface FirecrawlScrapeOptions {
  formats?: FormatOption[];
  headers?: Record<string, string>;
  includeTags?: string[];
  excludeTags?: string[];
  onlyMainContent?: boolean;
  timeout?: number;
  waitFor?: number;
  mobile?: boolean;
  actions?: ActionOption[];
  location?: { country?: string; languages?: string[] };
  skipTlsVerification?: boolean;
  removeBase64Images?: boolean;
  blockAds?: boolean;
  proxy?: string;
  maxAge?: number;
  storeInCache?: boolean;
  parsers?: ('pdf' | { type: 'pdf'; mode?: string; maxPages?: number })[];
  /** pagegrab's own: when a render counts as loaded. */
  waitUntil?: WaitUntil;
  /** pagegrab's own: a sticky session (the native `session_id`). */
  sessionId?: string;
  /** v1: the `json` format's schema and prompts. */
  jsonOptions?: JsonOptions;
  /** v1: the older `extract` format's, the same shape. */
  extract?: JsonOptions;
  /** v1: the changeTracking format's modes, schema, prompt and tag. */
  changeTrackingOptions?: unknown;
}

export interface JsonOptions {
  schema?: Record<string, unknown>;
  prompt?: string;
  systemPrompt?: string;
}

/** What the model makes of the page: a `json` (or v1 `extract`) answer, a summary. */
export interface ModelFormats {
  json: (JsonOptions & { field: 'json' | 'extract' }) | null;
  summary: boolean;
  /** Whether the caller asked for markdown too (the model reads it either way). */
  markdown: boolean;
}

/** What the door does with a scrape beyond the pipeline: the cache, the screenshot form. */
export interface FirecrawlScrape {
  options: ScrapeOptions;
  /** A cached result younger than this answers at once; 0: never read the cache. */
  maxAgeMs: number;
  storeInCache: boolean;
  /** Screenshots inline as base64 data URLs instead of links (pagegrab's option). */
  screenshotBase64: boolean;
  /** Formats made by the operator's model from the page's Markdown; null: none asked. */
  model: ModelFormats | null;
  /** The changeTracking format; null: not asked. */
  changeTracking: ChangeTrackingRequest | null;
  /** The Markdown was made for the model or change tracking only: not in the answer. */
  hideMarkdown: boolean;
}

/** Firecrawl's limits on actions (its API reference). */
export const MAX_ACTIONS = 50;
export const MAX_ACTIONS_WAIT_MS = 60_000;
/** Firecrawl counts a selector wait as one second towards the limit. */
const SELECTOR_WAIT_COST_MS = 1_000;

/** Firecrawl's default `maxAge` on v2: two days. */
export const V2_DEFAULT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

const DEFAULT_TIMEOUT_MS: Record<FirecrawlVersion, number> = { v1: 30_000, v2: 60_000 };

/** Formats made by the operator's model (when the door offers them: /scrape only). */
const OFFERED_MODEL_FORMATS = new Set(['json', 'extract', 'summary']);
/** Formats that need a language model and are not offered. */
const MODEL_FORMATS = new Set([
  'question',
  'highlights',
  'query',
  'deterministicJson',
  'branding',
  'product',
  'menu',
]);
/** Formats Firecrawl has that this server does not produce. */
const OTHER_FORMATS = new Set(['images', 'attributes', 'audio', 'video']);

function badRequest(text: string) {
  return appError('BAD_REQUEST', text);
}

function screenshotOf(format: Record<string, unknown>): ScreenshotRequest {
  const viewport = format.viewport as ViewportOption | undefined;
  return {
    fullPage: format.fullPage === true,
    quality: typeof format.quality === 'number' ? format.quality : null,
    viewport: viewport ? { width: viewport.width, height: viewport.height } : null,
  };
}

interface Formats {
  document: DocumentRequest;
  screenshotBase64: boolean;
  model: ModelFormats | null;
  changeTracking: ChangeTrackingRequest | null;
  hideMarkdown: boolean;
}

/**
 * v2 puts the modes, schema, prompt and tag on the format; v1 in `changeTrackingOptions`.
 * The json mode needs the operator's model (the door refuses it without one, 400).
 */
function changeTrackingOf(
  format: Record<string, unknown>,
  options: FirecrawlScrapeOptions,
  version: FirecrawlVersion,
): ChangeTrackingRequest {
  const raw = version === 'v1' ? options.changeTrackingOptions : format;
  const source = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const modes = Array.isArray(source.modes) ? source.modes : [];
  for (const mode of modes) {
    if (mode !== 'git-diff' && mode !== 'json') {
      throw badRequest(`Unknown changeTracking mode ${String(mode)}`);
    }
  }
  const { schema, prompt } = source;
  if (
    schema !== undefined &&
    (schema === null || typeof schema !== 'object' || Array.isArray(schema))
  ) {
    throw badRequest("The changeTracking format's schema must be a JSON schema object");
  }
  if (prompt !== undefined && typeof prompt !== 'string') {
    throw badRequest("The changeTracking format's prompt must be a string");
  }
  if (modes.includes('json') && schema === undefined && prompt === undefined) {
    throw badRequest('The changeTracking json mode needs a schema or a prompt');
  }
  return {
    modes: modes as ChangeTrackingRequest['modes'],
    tag: typeof source.tag === 'string' ? source.tag : null,
    ...(schema !== undefined ? { schema: schema as Record<string, unknown> } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
  };
}

/** Where a door offers the model's formats; `refuse`: a batch or crawl, which does not. */
export type ModelOffer = 'offered' | 'refuse';

function jsonOptionsOf(
  type: 'json' | 'extract',
  format: Record<string, unknown>,
  options: FirecrawlScrapeOptions,
  version: FirecrawlVersion,
): JsonOptions & { field: 'json' | 'extract' } {
  // v2 puts schema and prompt on the format; v1 in jsonOptions (or extract).
  const source = (
    version === 'v1' ? (type === 'json' ? options.jsonOptions : options.extract) : format
  ) as JsonOptions | undefined;
  const schema = source?.schema;
  const prompt = source?.prompt;
  if (schema === undefined && prompt === undefined) {
    throw badRequest(
      version === 'v1'
        ? `The ${type} format needs ${type === 'json' ? 'jsonOptions' : 'extract'} with a schema or a prompt`
        : `The ${type} format needs a schema or a prompt`,
    );
  }
  if (
    schema !== undefined &&
    (schema === null || typeof schema !== 'object' || Array.isArray(schema))
  ) {
    throw badRequest(`The ${type} format's schema must be a JSON schema object`);
  }
  if (prompt !== undefined && typeof prompt !== 'string') {
    throw badRequest(`The ${type} format's prompt must be a string`);
  }
  return {
    field: type,
    ...(schema !== undefined ? { schema } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
    ...(typeof source?.systemPrompt === 'string' ? { systemPrompt: source.systemPrompt } : {}),
  };
}

function formatsOf(
  options: FirecrawlScrapeOptions,
  version: FirecrawlVersion,
  offer: ModelOffer,
): Formats {
  const document: DocumentRequest = {
    markdown: false,
    html: false,
    rawHtml: false,
    links: false,
    screenshot: null,
    onlyMainContent: options.onlyMainContent ?? true,
    includeTags: [...(options.includeTags ?? [])],
    excludeTags: [...(options.excludeTags ?? [])],
    removeBase64Images: options.removeBase64Images ?? true,
    ...pdfPagesOf(options.parsers),
  };
  let screenshotBase64 = false;
  let screenshots = 0;
  let model: ModelFormats | null = null;
  let changeTracking: ChangeTrackingRequest | null = null;
  for (const raw of options.formats ?? ['markdown']) {
    const format: Record<string, unknown> = typeof raw === 'string' ? { type: raw } : raw;
    const type = String(format.type);
    if (OFFERED_MODEL_FORMATS.has(type) && offer === 'offered') {
      model ??= { json: null, summary: false, markdown: false };
      if (type === 'summary') model.summary = true;
      else model.json = jsonOptionsOf(type as 'json' | 'extract', format, options, version);
      continue;
    }
    if (type === 'changeTracking' && offer === 'offered') {
      changeTracking = changeTrackingOf(format, options, version);
      continue;
    }
    if (OFFERED_MODEL_FORMATS.has(type) || type === 'changeTracking') {
      throw badRequest(
        `The ${type} format is offered by /v1/scrape and /v2/scrape only, not in batch scrapes or crawls`,
      );
    }
    if (MODEL_FORMATS.has(type)) {
      throw badRequest(
        `The ${type} format needs a language model, which this server does not offer; ask for markdown, html, rawHtml, links or screenshot`,
      );
    }
    if (OTHER_FORMATS.has(type)) {
      throw badRequest(
        `The ${type} format is not offered by this server; ask for markdown, html, rawHtml, links or screenshot`,
      );
    }
    switch (type) {
      case 'markdown':
      case 'html':
      case 'rawHtml':
      case 'links':
        document[type] = true;
        break;
      case 'screenshot':
      case 'screenshot@fullPage':
        screenshots += 1;
        document.screenshot = screenshotOf(
          type === 'screenshot@fullPage' ? { fullPage: true } : format,
        );
        if (format.base64 === true) screenshotBase64 = true;
        break;
      default:
        throw badRequest(`Unknown format ${type} for ${version}`);
    }
  }
  if (screenshots > 1) throw badRequest('You may only specify one screenshot format');
  const hideMarkdown = (model !== null || changeTracking !== null) && !document.markdown;
  if (model) model.markdown = document.markdown;
  // The model and change tracking read the page's Markdown; the caller gets it only if asked.
  if (model || changeTracking) document.markdown = true;
  for (const field of ['includeTags', 'excludeTags'] as const) {
    const reason = assertSelectors(document[field]);
    if (reason !== null) throw badRequest(`Invalid ${field}: ${reason}`);
  }
  return { document, screenshotBase64, model, changeTracking, hideMarkdown };
}

/**
 * An action's selector is refused before a browser starts, in the caller's words, not
 * Chromium's (the same check as the native instructions).
 */
function checkSelector(action: ActionOption, index: number): void {
  const selector = (action as Record<string, unknown>).selector;
  if (typeof selector !== 'string') return;
  const problem = selectorProblem(selector);
  if (problem !== null) {
    throw badRequest(
      `actions[${index}]: ${action.type} selector ${JSON.stringify(selector)}: ${problem}`,
    );
  }
}

function instructionOf(action: ActionOption, index: number): Instruction {
  const a = action as Record<string, unknown>;
  switch (action.type) {
    case 'wait': {
      const hasMs = typeof a.milliseconds === 'number';
      const hasSelector = typeof a.selector === 'string';
      if (hasMs === hasSelector) {
        throw badRequest(
          `actions[${index}]: Either 'milliseconds' or 'selector' must be provided, but not both.`,
        );
      }
      return hasMs
        ? { delay: Math.max(1, a.milliseconds as number) }
        : { wait: a.selector as string };
    }
    case 'click':
      return a.all === true ? { click_all: a.selector as string } : { click: a.selector as string };
    case 'write':
      return { write: a.text as string };
    case 'press':
      return { press: a.key as string };
    case 'scroll':
      return {
        scroll: {
          direction: a.direction === 'up' ? 'up' : 'down',
          selector: typeof a.selector === 'string' ? a.selector : null,
        },
      };
    case 'screenshot':
      return { screenshot: screenshotOf(a) };
    case 'scrape':
      return { snapshot: true };
    case 'executeJavascript':
      return { evaluate: a.script as string };
    case 'pdf':
      throw badRequest(`actions[${index}]: the pdf action is not offered by this server`);
    default:
      throw badRequest(`actions[${index}]: unknown action type ${action.type}`);
  }
}

function actionsOf(options: FirecrawlScrapeOptions): Instruction[] {
  const actions = options.actions ?? [];
  if (actions.length > MAX_ACTIONS) {
    throw badRequest(`Number of actions cannot exceed ${MAX_ACTIONS}`);
  }
  const waited =
    (options.waitFor ?? 0) +
    actions.reduce((total, action) => {
      if (action.type !== 'wait') return total;
      const ms = (action as Record<string, unknown>).milliseconds;
      return total + (typeof ms === 'number' ? ms : SELECTOR_WAIT_COST_MS);
    }, 0);
  if (waited > MAX_ACTIONS_WAIT_MS) {
    throw badRequest(
      `Total wait time (waitFor + wait actions) cannot exceed ${MAX_ACTIONS_WAIT_MS / 1000} seconds`,
    );
  }
  return actions.map((action, index) => {
    checkSelector(action, index);
    return instructionOf(action, index);
  });
}

/** basic → datacenter; stealth, enhanced → residential; auto → datacenter, then residential. */
function proxyOf(proxy: string | undefined, version: FirecrawlVersion) {
  const chosen = proxy ?? (version === 'v2' ? 'auto' : 'basic');
  if (chosen === 'stealth' || chosen === 'enhanced') {
    return { proxyType: 'residential' as const, proxyEscalation: false };
  }
  return { proxyType: 'datacenter' as const, proxyEscalation: chosen === 'auto' };
}

function timeoutOf(options: FirecrawlScrapeOptions, version: FirecrawlVersion): number {
  const asked = options.timeout ?? DEFAULT_TIMEOUT_MS[version];
  // Firecrawl allows longer budgets; ours end at the native maximum.
  const timeout = Math.min(Math.max(asked, LIMITS.timeoutMs.min), LIMITS.timeoutMs.max);
  if (options.waitFor && options.waitFor > timeout / 2) {
    throw badRequest('waitFor must not exceed half of timeout');
  }
  return timeout;
}

export function firecrawlScrapeOf(
  url: string,
  options: FirecrawlScrapeOptions,
  version: FirecrawlVersion,
  offer: ModelOffer = 'refuse',
): FirecrawlScrape {
  const { document, screenshotBase64, model, changeTracking, hideMarkdown } = formatsOf(
    options,
    version,
    offer,
  );
  const instructions = actionsOf(options);
  const waitForMs = options.waitFor ?? 0;
  const mobile = options.mobile ?? false;
  const headers = { ...(options.headers ?? {}) };
  const needsBrowser =
    document.screenshot !== null || instructions.length > 0 || waitForMs > 0 || mobile;
  const blockAds = options.blockAds ?? true;
  // Firecrawl v2 skips TLS verification unless the caller sends headers or actions.
  const skipTls =
    options.skipTlsVerification ??
    (version === 'v2' && Object.keys(headers).length === 0 && instructions.length === 0);
  const country = options.location?.country;
  const scrapeOptions: ScrapeOptions = {
    ...DEFAULT_SCRAPE_OPTIONS,
    url: parseHttpUrlParam('url', url),
    render: needsBrowser,
    renderWhenNeeded: !needsBrowser,
    blockAds,
    // Firecrawl's blockAds also keeps cookie pop-ups away.
    blockCookieBanners: blockAds,
    blockResources: [],
    instructions,
    timeoutMs: timeoutOf(options, version),
    waitUntil: options.waitUntil ?? DEFAULT_SCRAPE_OPTIONS.waitUntil,
    waitForMs,
    mobile,
    headers,
    languages: [...(options.location?.languages ?? [])],
    skipTlsVerification: skipTls,
    proxyCountry: country && country.toLowerCase() !== 'us-generic' ? country.toUpperCase() : null,
    ...proxyOf(options.proxy, version),
    sessionId: options.sessionId ?? null,
    document,
  };
  return {
    options: scrapeOptions,
    maxAgeMs: options.maxAge ?? (version === 'v2' ? V2_DEFAULT_MAX_AGE_MS : 0),
    storeInCache: options.storeInCache ?? true,
    screenshotBase64,
    model,
    changeTracking,
    hideMarkdown,
  };
}

/** `parsers`: absent or "pdf" converts PDFs (up to PDF_MAX_PAGES), `[]` none. */
function pdfPagesOf(parsers: FirecrawlScrapeOptions['parsers']): { pdfMaxPages?: number } {
  if (!parsers) return {};
  const pdf = parsers.find((p) => p === 'pdf' || p.type === 'pdf');
  if (pdf === undefined) return { pdfMaxPages: 0 };
  return typeof pdf === 'object' && pdf.maxPages !== undefined ? { pdfMaxPages: pdf.maxPages } : {};
}
