/**
 * The shapes that flow through a scrape: options (validated parameters) → plan (prepare) →
 * run (execute: the plan with its deadline) → engine → PageSnapshot → output → ScrapeResult.
 * Closed sets are union types so that tables keyed by them are exhaustive: adding a member
 * fails to compile until every table handles it.
 */
import type { AppError } from '../errors.js';
import type { ScheduledRun } from '../store/run-records.js';

export const RESOURCE_TYPES = [
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'texttrack',
  'xhr',
  'fetch',
  'eventsource',
  'manifest',
  'other',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const PROXY_TYPES = ['datacenter', 'residential', 'mobile'] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];

/**
 * `document`: several formats from one load (the Firecrawl door), as a JSON PageDocument.
 * `extract`: the fields of `extract_rules`, as JSON. `structured_data`: the page's JSON-LD,
 * microdata, OpenGraph and Twitter cards, as JSON. `json` and `summary`: the operator's model
 * over the page's main-content Markdown (scrape/output/model-output.ts). `change_tracking`:
 * the Markdown against the account's previous scrape of the URL, as JSON
 * (scrape/output/change-tracking-output.ts).
 */
export type OutputType =
  | 'html'
  | 'markdown'
  | 'screenshot'
  | 'document'
  | 'extract'
  | 'structured_data'
  | 'json'
  | 'summary'
  | 'change_tracking';
export type EngineName = 'fetch' | 'browser';

/**
 * When a render counts as loaded: `settled` (the default: the page's own work has ended and
 * its DOM is quiet, browser/page-settle.ts), or Playwright's waitUntil.
 */
export const WAIT_UNTIL = ['settled', 'load', 'domcontentloaded', 'networkidle'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** A screenshot as a step or a format asks for it. */
export interface ScreenshotRequest {
  fullPage: boolean;
  /** JPEG quality 1..100; null: PNG. */
  quality: number | null;
  /** Window size for this screenshot; null: the run's window. */
  viewport: { width: number; height: number } | null;
}

/**
 * One browser step. The native `instructions` take wait, fill, click, delay, press, scroll,
 * evaluate and infinite_scroll; the Firecrawl door's actions map onto all of them (its
 * `write`, `click` with `all`, `screenshot` and `scrape` only exist there).
 */
export type Instruction =
  | { wait: string }
  | { fill: { selector: string; text: string; delay: number } }
  | { click: string }
  | { delay: number }
  | { press: string }
  | { scroll: { direction: 'up' | 'down'; selector: string | null } }
  | { evaluate: string }
  | { infinite_scroll: { max_scrolls: number; delay: number } }
  | { click_all: string }
  | { write: string }
  | { screenshot: ScreenshotRequest }
  | { snapshot: true };
export type InstructionKind =
  | 'wait'
  | 'fill'
  | 'click'
  | 'delay'
  | 'press'
  | 'scroll'
  | 'evaluate'
  | 'infinite_scroll'
  | 'click_all'
  | 'write'
  | 'screenshot'
  | 'snapshot';

/** What the formats of a `document` output ask for (the Firecrawl door's `formats`). */
export interface DocumentRequest {
  markdown: boolean;
  /** The cleaned page (scripts, styles, hidden elements removed; main content if asked). */
  html: boolean;
  /** The page as loaded. */
  rawHtml: boolean;
  links: boolean;
  screenshot: ScreenshotRequest | null;
  /** Main-content extraction for markdown and html; false: the whole cleaned page. */
  onlyMainContent: boolean;
  /** CSS selectors: keep only these (empty: everything), then drop the excluded ones. */
  includeTags: string[];
  excludeTags: string[];
  removeBase64Images: boolean;
  /** PDF pages converted to Markdown, at most PDF_MAX_PAGES (0: none; absent: that cap). */
  pdfMaxPages?: number;
}

/**
 * What one extraction field answers with: the element's text, its outer HTML, one of its
 * attributes, a table's rows, or nested fields read within the element.
 */
export type ExtractOutput =
  | 'text'
  | 'html'
  | 'table_json'
  | 'table_array'
  | { attribute: string }
  | { fields: ExtractField[] };

/**
 * One field of `extract_rules` (ScrapingBee's syntax), normalised. A list, not an object
 * keyed by name, so that a caller's field called `__proto__` stays a field.
 */
export interface ExtractField {
  name: string;
  /** A CSS selector; '' means the element the field is read in (the page: its `<html>`). */
  selector: string;
  /** `item`: the first match (null if none); `list`: every match, in document order. */
  type: 'item' | 'list';
  output: ExtractOutput;
  /** Text with its whitespace runs collapsed to one space and trimmed. */
  clean: boolean;
}

/** Validated, normalised scraper parameters of the native API (after the precedence merge). */
export interface NativeOptions {
  url: string;
  render: boolean;
  windowWidth: number;
  windowHeight: number;
  screenshot: boolean;
  screenshotFullPage: boolean;
  markdown: boolean;
  blockResources: ResourceType[];
  blockAds: boolean;
  blockCookieBanners: boolean;
  blockChatWidgets: boolean;
  webhookUrl: string | null;
  proxyType: ProxyType;
  /** ISO 3166-1 alpha-2, upper-case, or null. */
  proxyCountry: string | null;
  instructions: Instruction[];
  /** The whole budget of the scrape in milliseconds. */
  timeoutMs: number;
  /** When a render counts as loaded. */
  waitUntil: WaitUntil;
  /** Fields to read from the page, answered as JSON instead of the page; null: none. */
  extractRules: ExtractField[] | null;
  /** Answer the page's own structured data (JSON-LD, microdata, OpenGraph, Twitter) as JSON. */
  structuredData: boolean;
  /** The model's JSON answer, asked with this JSON schema (and/or `jsonPrompt`); null: none. */
  jsonSchema: Record<string, unknown> | null;
  /** The model's JSON answer, asked with this prompt (and/or `jsonSchema`); null: none. */
  jsonPrompt: string | null;
  /** The model's summary of the page, as plain text. */
  summary: boolean;
  /**
   * The page's Markdown compared with the account's previous change_tracking scrape of the
   * URL, as JSON; with `jsonSchema`/`jsonPrompt`, the model's answers compared too.
   */
  changeTracking: boolean;
}

/** What other doors (the Firecrawl API) can ask beyond the native parameters. */
export interface DoorOptions {
  /** Extra pause after the load, before the steps (Firecrawl's waitFor); 0: none. */
  waitForMs: number;
  /** A phone: viewport, user agent, touch. */
  mobile: boolean;
  /** Extra request headers for the target. */
  headers: Record<string, string>;
  /** Accept-Language, most preferred first; empty: the engine's default. */
  languages: string[];
  skipTlsVerification: boolean;
  /**
   * Fetch first and render only when the fetched page plainly needs JavaScript (the engine
   * heuristic in scrape/engines/needs-javascript.ts); charged as a render only if rendered.
   */
  renderWhenNeeded: boolean;
  /**
   * Try the planned proxy type first, then a residential proxy when the answer looks
   * blocked (Firecrawl's proxy=auto); charged for the proxy actually used.
   */
  proxyEscalation: boolean;
  /** Several formats from one load; null: the native single output. */
  document: DocumentRequest | null;
  /**
   * A sticky session of the account (the native query's `session_id`, the Firecrawl door's
   * `sessionId`): same proxy, connection and cookies until 5 minutes of inactivity
   * (scrape/net/sessions.ts); null: none. Never part of a saved workflow config.
   */
  sessionId: string | null;
}

export interface ScrapeOptions extends NativeOptions, DoorOptions {}

/** An upstream proxy as the operator configured it (PROXIES_FILE). */
export interface ProxyEndpoint {
  /** Full URL, credentials included: http://user:pass@host:port */
  url: string;
  type: ProxyType;
  country: string | null;
  /** Its name in /metrics, logs and `pagegrab proxies`: never its credentials (proxy-health.ts). */
  label?: string;
}

/** Which blocker families a request asked for: one selection for both engines. */
export interface BlockSelection {
  ads: boolean;
  cookieBanners: boolean;
  chatWidgets: boolean;
}

/** What a page load needs: the options and the decisions the planner made about them. */
export interface PagePlan {
  readonly options: Readonly<ScrapeOptions>;
  readonly engine: EngineName;
  readonly output: OutputType;
  /**
   * The blockers to apply; null: none. The browser applies them in the page; a fetched page
   * has them stripped in the output stage.
   */
  readonly block: Readonly<BlockSelection> | null;
  /**
   * Proxies to try in order (the first is the rotation's pick, the second the failover);
   * empty means a direct connection.
   */
  readonly proxies: readonly ProxyEndpoint[];
  /**
   * proxyEscalation: the residential proxies to try when the first answer looks blocked;
   * null: no escalation (not asked, or no residential proxy for the country).
   */
  readonly escalation?: readonly ProxyEndpoint[] | null;
  /**
   * What each way the page may be loaded costs, keyed `<engine>:<proxy type>`, when the plan
   * leaves a choice (renderWhenNeeded, proxyEscalation): the reservation starts at the first
   * way's (`price`) and grows when the run takes a dearer one (`ScrapeRun.escalate`); the
   * settle charges the one used and returns the rest.
   */
  readonly prices?: Readonly<Record<string, number>>;
  /**
   * Who the scrape is for (the account id). A warm browser context is only ever reused by
   * scrapes with the same isolation key and proxy, even though it is reset in between.
   */
  readonly isolationKey: string;
}

/**
 * Where a scrape came from, as the request log shows it: the native scraper (`api`), a
 * workflow run (`workflow`), the Firecrawl door (`firecrawl`), a batch's page (`batch`), a
 * crawl's page (`crawl`), a scheduled workflow run (`schedule`).
 */
export type RequestSource = 'api' | 'workflow' | 'firecrawl' | 'batch' | 'crawl' | 'schedule';

/**
 * A request as its caller made it, in its door's own terms (a Firecrawl body), for the request
 * log: what `ScrapeOptions` made of it (`markdown: false` beside a `document` request) is not
 * what the caller sent.
 */
export interface AskedRequest {
  door: 'firecrawl';
  version: 'v1' | 'v2';
  /** The body as sent; a batch's or crawl's page: its URL and the job's scrapeOptions. */
  body: Readonly<Record<string, unknown>>;
  /** A batch's or crawl's page: that batch or crawl (a crawl is a batch). */
  batchId?: string;
}

/**
 * A scrape as `prepare` decided it, complete and never changed afterwards. JSON-serialisable:
 * a webhook job stores it as it is and runs it later, on any node.
 */
export interface ScrapePlan extends PagePlan {
  /** Names the scrape everywhere: X-Request-Id, the webhook's requestId, the run record. */
  readonly requestId: string;
  readonly accountId: string;
  /** The account's concurrent-scrape limit (admission). */
  readonly concurrencyLimit: number;
  readonly workflowId: string | null;
  /**
   * Which door or job asked (the request log's source); absent on plans stored before it
   * existed, which count as `api` or `workflow`.
   */
  readonly source?: RequestSource;
  /** The request in its door's terms, for the request log; absent: the options are shown. */
  readonly asked?: AskedRequest;
  /**
   * Credits reserved now (with a choice: what the first way costs), settled if the target
   * answers.
   */
  readonly price: number;
  readonly createdAt: number;
  /** A scheduled run's due time and catch-up mark (its record says so). */
  readonly schedule?: ScheduledRun;
}

/**
 * A plan being carried out. The clock starts when the scrape runs, not when it was planned,
 * so time a webhook job spends queued does not count against its budget.
 */
export interface ScrapeRun extends PagePlan {
  /** Epoch milliseconds by which the whole scrape must be done. */
  readonly deadline: number;
  /** Aborted when the deadline passes or the client goes away. */
  readonly signal: AbortSignal;
  /**
   * Asked before each redirect hop is requested (a crawl's robots.txt): false ends the load
   * with FETCH_FAILED. The fetch engine asks; a render's redirects are Chromium's own.
   */
  readonly followRedirect?: (url: URL) => Promise<boolean>;
  /**
   * Called before the run loads the page a dearer way than its plan's first (a render after
   * the fetch, residential proxies after blocks): the scrape's reservation grows to that
   * way's price, or this throws 402 (INSUFFICIENT_CREDITS) and the run ends there. Absent:
   * the reservation already covers every way.
   */
  readonly escalate?: (to: UsedResources) => Promise<void>;
  /** The plan's own (a run is the plan and more): change tracking reads the account's history. */
  readonly requestId?: string;
  readonly accountId?: string;
}

/** What an engine hands back. */
export interface PageSnapshot {
  /** Final URL after redirects. */
  finalUrl: string;
  /** The target's HTTP status. */
  status: number;
  /** The document as UTF-8 text (for render=true: the rendered DOM); '' when `body` is set. */
  html: string;
  /**
   * `html` as UTF-8 bytes, when the target sent exactly those (a fetched UTF-8 page): the
   * html output answers them as they are instead of encoding the 100 KB text again.
   */
  htmlBytes?: Buffer;
  /** A fetched body that is not text (PDF, DOCX, images, archives...), as its bytes. */
  body?: Buffer;
  /** PNG (or JPEG when a quality was asked) bytes, when the plan's output asks for one. */
  screenshot?: Buffer;
  /** The target's Content-Type, when known. */
  contentType?: string | null;
  /** What the steps returned: screenshot, snapshot and evaluate steps, in step order. */
  actions?: ActionResults;
  /** Which engine and proxy type produced the page (an escalated scrape changes them). */
  used?: UsedResources;
  /** The upstream proxy the page came through; null or absent: a direct connection. */
  via?: ProxyEndpoint | null;
  /** The target's Retry-After header, as sent (a crawl waits that long on a 429 or 503). */
  retryAfter?: string;
}

export interface UsedResources {
  engine: EngineName;
  proxyType: ProxyType;
}

export interface ActionResults {
  screenshots: Buffer[];
  snapshots: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
}

/** A value parsed from a page's JSON-LD or microdata. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * A page's metadata as a `document` output reports it (Firecrawl's field names); `jsonLd`
 * and `microdata` hold the page's structured data, when it has some.
 */
export type PageMetadata = Record<string, string | string[] | number | JsonValue[] | undefined>;

/**
 * The `document` output: every asked format from one load, JSON-serialisable (screenshots
 * base64) so a job can store it. The door turns it into its own envelope.
 */
export interface PageDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: { contentType: string; base64: string };
  metadata: PageMetadata;
  actions?: {
    screenshots: { contentType: string; base64: string }[];
    scrapes: { url: string; html: string }[];
    javascriptReturns: { type: string; value: unknown }[];
  };
}

/**
 * What the output stage produces and the route (or a webhook) sends: the answer's bytes, or,
 * for a `document` output, the PageDocument itself (built once in the output worker and
 * handed over as a structured clone: the door shapes it and serialises its answer once;
 * `resultBytes` in output/index.ts serialises it where bytes are kept).
 */
export type ScrapeResult = ResultFacts &
  ({ body: Buffer; document?: undefined } | { document: PageDocument; body?: undefined });

/** What every result says besides its content. */
export interface ResultFacts {
  contentType: string;
  finalUrl: string;
  targetStatus: number;
  /** What the page was loaded with, when the plan left a choice (render, proxy escalation). */
  used?: UsedResources;
  /** The target's Retry-After header, as sent. */
  retryAfter?: string;
  /** A `json` or `summary` output: the model that made it and its token counts. */
  model?: ModelUsage;
  /**
   * Credits of the plan's price the output did not use (change tracking's model calls on a
   * page that did not change): the settle charges the rest.
   */
  unspent?: number;
}

/** What a model call of an output used, for the request record. */
export interface ModelUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/** How a run ended: the result, or the catalog error its caller is answered with. */
export type Outcome = { ok: true; result: ScrapeResult } | { ok: false; error: AppError };
