/**
 * The shapes that flow through a scrape: options (validated parameters) → plan → engine →
 * PageSnapshot → output. Closed sets are union types so that tables keyed by them are
 * exhaustive: adding a member fails to compile until every table handles it.
 */

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

/** What the engines need beyond the options: the decisions the planner made. */
export interface ScrapePlan {
  options: ScrapeOptions;
  engine: EngineName;
  output: OutputType;
  /**
   * Proxies to try in order (the first is the rotation's pick, the second the failover);
   * empty means a direct connection.
   */
  proxies: ProxyEndpoint[];
  /** Epoch milliseconds by which the whole scrape must be done. */
  deadline: number;
  /** Aborted when the deadline passes or the client goes away. */
  signal: AbortSignal;
  /**
   * Who the scrape is for (the account id). A warm browser context is only ever reused by
   * scrapes with the same isolation key and proxy, even though it is reset in between.
   */
  isolationKey?: string;
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
