/**
 * The shapes that flow through a scrape: options (validated parameters) → plan (prepare) →
 * run (execute: the plan with its deadline) → engine → PageSnapshot → output → ScrapeResult.
 * Closed sets are union types so that tables keyed by them are exhaustive: adding a member
 * fails to compile until every table handles it.
 */
import type { AppError } from '../errors.js';

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

export type OutputType = 'html' | 'markdown' | 'screenshot';
export type EngineName = 'fetch' | 'browser';

export type Instruction =
  | { wait: string }
  | { fill: { selector: string; text: string; delay: number } }
  | { click: string }
  | { delay: number };
export type InstructionKind = 'wait' | 'fill' | 'click' | 'delay';

/** Validated, normalised scraper parameters (after the precedence merge). */
export interface ScrapeOptions {
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
}

/** An upstream proxy as the operator configured it (PROXIES_FILE). */
export interface ProxyEndpoint {
  /** Full URL, credentials included: http://user:pass@host:port */
  url: string;
  type: ProxyType;
  country: string | null;
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
   * Who the scrape is for (the account id). A warm browser context is only ever reused by
   * scrapes with the same isolation key and proxy, even though it is reset in between.
   */
  readonly isolationKey: string;
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
  /** Credits reserved now, settled if the target answers. */
  readonly price: number;
  readonly createdAt: number;
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
}

/** What an engine hands back. */
export interface PageSnapshot {
  /** Final URL after redirects. */
  finalUrl: string;
  /** The target's HTTP status. */
  status: number;
  /** The document as UTF-8 text (for render=true: the rendered DOM). */
  html: string;
  /** PNG bytes, only when the plan's output is 'screenshot'. */
  screenshot?: Buffer;
}

/** What the output stage produces and the route (or a webhook) sends. */
export interface ScrapeResult {
  contentType: string;
  body: Buffer;
  finalUrl: string;
  targetStatus: number;
}

/** How a run ended: the result, or the catalog error its caller is answered with. */
export type Outcome = { ok: true; result: ScrapeResult } | { ok: false; error: AppError };
