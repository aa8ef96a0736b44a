/**
 * The public API's JSON shapes as the dashboard reads them (contract sections 4 and 5).
 * The dashboard is an ordinary client: nothing here is shared with the server's code.
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

/** The service's WAIT_UNTIL (src/scrape/types.ts), default first. */
export const WAIT_UNTIL = ['settled', 'load', 'domcontentloaded', 'networkidle'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

export const SCROLL_DIRECTIONS = ['down', 'up'] as const;
export type ScrollDirection = (typeof SCROLL_DIRECTIONS)[number];

/** One browser step as the API takes it; a saved config holds the object forms. */
export type Instruction =
  | { wait: string }
  | { fill: { selector: string; text: string; delay?: number } }
  | { click: string }
  | { delay: number }
  | { press: string }
  | { scroll: ScrollDirection | { direction: ScrollDirection; selector?: string | null } }
  | { evaluate: string }
  | { infinite_scroll: true | { max_scrolls?: number; delay?: number } };

/** A saved scraper configuration; every scraper parameter except api_key/workflow_id/config. */
export interface WorkflowConfig {
  url: string;
  render: boolean;
  window_width?: number;
  window_height?: number;
  screenshot?: boolean;
  screenshot_full_page?: boolean;
  markdown?: boolean;
  instructions?: Instruction[];
  block_resources?: string;
  block_ads?: boolean;
  block_cookie_banners?: boolean;
  block_chat_widgets?: boolean;
  webhook_url?: string;
  proxy_type?: string;
  proxy_country?: string;
  timeout?: number;
  /** Absent means load. */
  wait_until?: WaitUntil;
  /** Fields this dashboard does not know are kept as they are on edit. */
  [other: string]: unknown;
}

export interface Workflow {
  id: string;
  userId: string;
  config: WorkflowConfig;
  name: string;
  lastRun: string | null;
  creditsSpent: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

export interface WebhookState {
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

export interface RequestRecord {
  id: string;
  workflowId: string | null;
  url: string;
  status: 'success' | 'failed';
  statusCode: number;
  targetStatus: number | null;
  outputType:
    | 'html'
    | 'markdown'
    | 'screenshot'
    | 'extract'
    | 'structured_data'
    | 'json'
    | 'summary'
    | 'change_tracking';
  render: boolean;
  proxyType: string;
  proxyCountry: string | null;
  creditsSpent: number;
  durationMs: number | null;
  error: string | null;
  webhook: WebhookState | null;
  createdAt: string;
  /** Only on a scheduled run: the due time it ran for. */
  schedule?: { scheduledFor: string; catchUp: boolean };
}

export interface Account {
  id: string;
  name: string;
  credits: number;
  createdAt: string;
}

/** What a scraper request produced, ready for the preview. */
export type ScrapeOutcome =
  | { kind: 'html'; text: string; meta: ScrapeMeta }
  | { kind: 'markdown'; text: string; meta: ScrapeMeta }
  | { kind: 'screenshot'; blob: Blob; meta: ScrapeMeta }
  | { kind: 'webhook'; message: string; requestId: string | null; meta: ScrapeMeta };

export interface ScrapeMeta {
  creditsUsed: number | null;
  creditsRemaining: number | null;
  targetStatus: number | null;
  targetUrl: string | null;
  durationMs: number;
  /** X-Request-Id: the record in the request log. */
  requestId?: string | null;
}

/** Where a scrape came from, as the request log names it. */
export type RequestSource = 'api' | 'workflow' | 'firecrawl' | 'batch' | 'crawl' | 'schedule';

/** One record of the account's request log (GET /api/requests). */
export interface LogRecord {
  id: string;
  source: RequestSource;
  workflowId: string | null;
  url: string;
  host: string | null;
  status: 'success' | 'failed' | 'pending';
  statusCode: number | null;
  targetStatus: number | null;
  outputType: string;
  render: boolean;
  proxyType: string;
  proxyCountry: string | null;
  creditsSpent: number;
  durationMs: number | null;
  error: string | null;
  webhook: WebhookState | null;
  createdAt: string;
}

export interface LogPage {
  records: LogRecord[];
  /** The `before` of the next page; null on the last. */
  next: string | null;
}

export interface LogDetail {
  record: LogRecord;
  workflowName: string | null;
  params: Record<string, unknown> | null;
  finishedAt: string | null;
  result: { contentType: string; size: number } | null;
}

export interface LogFilter {
  status?: string;
  host?: string;
  workflow_id?: string;
  source?: string;
  from?: string;
  to?: string;
  q?: string;
}

export interface TargetFigure {
  host: string;
  requests: number;
  failed: number;
  avgMs: number | null;
  error: string | null;
}

export interface Usage {
  credits: number;
  days: { date: string; credits: number; requests: number; failed: number }[];
  outcomes: { success: number; failed: number; pending: number };
  slowest: TargetFigure[];
  failing: TargetFigure[];
}

export interface ApiKeyInfo {
  id: string;
  prefix: string | null;
  name: string | null;
  createdAt: string;
  /** To the minute; null if never used. */
  lastUsedAt: string | null;
  current: boolean;
}

export interface NewApiKey {
  id: string;
  prefix: string;
  name: string | null;
  createdAt: string;
  /** Shown once. */
  key: string;
}
