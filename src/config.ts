/**
 * The only reader of the environment. Every setting is validated here, once, with its default
 * documented; a bad value stops start-up with a message naming the variable.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export interface Pricing {
  /** Credits for a request without rendering. Default 1. */
  baseFetch: number;
  /** Credits for a request with render=true. Default 15. */
  baseRender: number;
  /** Multipliers by proxy type. Defaults: datacenter 1, residential 10, mobile 25. */
  multipliers: { datacenter: number; residential: number; mobile: number };
}

export interface Config {
  /** PORT, default 8080. */
  port: number;
  /** HOST, default 127.0.0.1. */
  host: string;
  /** DATA_DIR: the embedded database folder, default ./data. */
  dataDir: string;
  /** DATABASE_URL: a postgres:// URL switches storage to PostgreSQL. Default: unset (embedded). */
  databaseUrl: string | null;
  /**
   * NODE_NAME: this node's name on the reservations it holds, the same across its restarts
   * (its next start ends those a crash left open). Unique among nodes sharing a database.
   * Default: `<hostname>:<HOST>:<bound port>`.
   */
  nodeName: string | null;
  /** CHROMIUM_PATH: default Debian's /usr/lib/chromium/chromium, else `chromium` on PATH. */
  chromiumPath: string | null;
  /** ALLOW_PRIVATE_NETWORKS: let targets and webhooks reach non-public addresses. Default false. */
  allowPrivateNetworks: boolean;
  /** PROXIES_FILE: JSON array of upstream proxies. Default: none (direct connections). */
  proxiesFile: string | null;
  /** LOG_LEVEL: pino level, default info. */
  logLevel: string;
  /** PRICE_FETCH, PRICE_RENDER, PRICE_MULT_DATACENTER/RESIDENTIAL/MOBILE. */
  pricing: Pricing;
  /**
   * MAX_BODY_BYTES: largest target body accepted, default 20 MiB (then 502); a render's
   * bound on all the decoded bytes its page receives together, and on its HTML.
   */
  maxBodyBytes: number;
  /** ACCOUNT_CONCURRENCY: default concurrent scrapes per account, default 10. */
  accountConcurrency: number;
  /** NODE_CONCURRENCY: scrapes in flight on this node before 503, default 64. */
  nodeConcurrency: number;
  /** BROWSER_PAGES: concurrent pages in the browser pool, default 4. */
  browserPages: number;
  /**
   * RENDER_SETTLE_MAX_MS: the longest a `wait_until=settled` render (the default) waits after
   * the load event for the page's own work to end, default 5000; within the caller's timeout.
   */
  renderSettleMaxMs: number;
  /** SHUTDOWN_GRACE_MS: how long in-flight requests may run after SIGTERM, default 30000. */
  shutdownGraceMs: number;
  /** WEBHOOK_BACKOFF_MS: base of the webhook retry backoff, default 30000 (8 tries ≈ 1 h). */
  webhookBackoffMs: number;
  /** WEBHOOK_TIMEOUT_MS: per-attempt delivery timeout, default 10000. */
  webhookTimeoutMs: number;
  /** JOB_LEASE_MS: how long a job lock lasts before another node may take it, default 60000. */
  jobLeaseMs: number;
  /** JOB_POLL_MS: how often idle job workers look for due jobs (other nodes', retries), default 500. */
  jobPollMs: number;
  /** JOB_RETENTION_MS: ended jobs older than this are deleted (hourly), default 7 days. */
  jobRetentionMs: number;
  /** WEBHOOK_SCRAPE_CONCURRENCY: webhook scrapes run at once on this node, default 8. */
  webhookScrapeConcurrency: number;
  /** WEBHOOK_DELIVERY_CONCURRENCY: webhook delivery attempts in flight on this node, default 32. */
  webhookDeliveryConcurrency: number;
  /** PG_POOL_SIZE: PostgreSQL connections per node (with DATABASE_URL), default 10. */
  pgPoolSize: number;
  /**
   * PG_CONNECT_TIMEOUT_MS: longest a new PostgreSQL connection may take to be ready, default
   * 10000; a server that accepts and never answers fails start-up then.
   */
  pgConnectTimeoutMs: number;
  /**
   * PG_STATEMENT_TIMEOUT_MS: longest one statement of the running service may take, default
   * 30000: the server cancels it then, and the client gives up 2 s later if the server is
   * silent. Migrations at start-up are not bounded by it.
   */
  pgStatementTimeoutMs: number;
  /**
   * MARKDOWN_WORKERS: worker threads that convert pages to Markdown and run the render=false
   * ad/cookie/chat blocker, default 2.
   */
  markdownWorkers: number;
  /**
   * MARKDOWN_WORKERS_AT_START: `pagegrab serve` boots those workers as it starts rather than
   * on the first page that needs one (whose answer waited for the boot), default true.
   */
  markdownWorkersAtStart: boolean;
  /**
   * HEAP_GROWING_PERCENT: how far V8 lets the main heap grow past what survived its last full
   * collection before the next one, default 25; 0 leaves V8's own factor (up to 4x), under
   * which a long crawl's garbage piled up to +30% of RSS before one late collection.
   */
  heapGrowingPercent: number;
  /**
   * MARKDOWN_MAX_MS: longest one page may spend in those workers (render=false blocking plus
   * Markdown conversion) before 504, default 10000.
   */
  markdownMaxMs: number;
  /**
   * PDF_MAX_PAGES: pages of a PDF converted to Markdown, default 300 (later pages are left
   * out; Firecrawl's `parsers: [{type: "pdf", maxPages}]` may ask for fewer).
   */
  pdfMaxPages: number;
  /** DOCUMENT_MAX_BYTES: largest PDF or DOCX converted to Markdown, default 10 MiB (then 422). */
  documentMaxBytes: number;
  /** FILTERS_DIR: the built ad/cookie filter engines, default <package>/build/filters. */
  filtersDir: string;
  /** DASHBOARD_DIR: the built dashboard, default <package>/dist/dashboard. */
  dashboardDir: string;
  /**
   * PUBLIC_URL: the service's address as callers reach it, for links it hands out
   * (screenshots). Default: unset (the address the request came to).
   */
  publicUrl: string | null;
  /** SCREENSHOT_RETENTION_MS: how long a linked screenshot is served, default 24 h. */
  screenshotRetentionMs: number;
  /** CACHE_RETENTION_MS: the Firecrawl door's cached results are kept this long, default 2 days. */
  cacheRetentionMs: number;
  /** PRICE_CACHE_HIT: credits for a scrape answered from the cache, default 1. */
  cacheHitPrice: number;
  /** BATCH_SCRAPE_CONCURRENCY: batch pages this node runs at once (all batches), default 10. */
  batchScrapeConcurrency: number;
  /** BATCH_RETENTION_MS: a batch scrape's results are kept this long after it starts, default 24 h. */
  batchRetentionMs: number;
  /** SCHEDULE_MIN_INTERVAL_MS: shortest gap a workflow schedule may have between runs, default 1 minute. */
  scheduleMinIntervalMs: number;
  /**
   * SCHEDULE_ALLOW_SECONDS: accept a leading seconds field in schedules' cron, default false.
   * For tests only (second-level timing); with it, lower SCHEDULE_MIN_INTERVAL_MS as well.
   */
  scheduleAllowSeconds: boolean;
  /** SCHEDULE_DISABLE_AFTER_FAILURES: consecutive failed runs that pause a schedule, default 5. */
  scheduleDisableAfterFailures: number;
  /** SCHEDULE_POLL_MS: longest sleep of a node's scheduler (sees other nodes' changes), default 1000. */
  schedulePollMs: number;
  /**
   * SCHEDULE_MISFIRE_MS: a due time not enqueued within this is missed (no node ran): missed
   * ones become at most one catch-up run, default 60000.
   */
  scheduleMisfireMs: number;
  /** SCHEDULE_RUN_CONCURRENCY: scheduled runs this node executes at once, default 8. */
  scheduleRunConcurrency: number;
  /**
   * RESULT_RETENTION_DAYS: the request log keeps each scrape's result this many days, for
   * its detail view; 0 keeps none. Default 7.
   */
  resultRetentionDays: number;
  /** RESULT_MAX_BYTES: a larger result is not kept (its record is), default 2 MiB. */
  resultMaxBytes: number;
  /** RESULT_ACCOUNT_BYTES: kept results per account, oldest dropped first, default 256 MiB. */
  resultAccountBytes: number;
  /**
   * RESULT_FILES: on the embedded engine, new kept results are files under DATA_DIR/results
   * (content-addressed, store/result-files.ts) instead of rows: the database grows ~10x less,
   * at ~1.4 ms more CPU a result on this machine's disk (bench/kept-result-files.ts). Default
   * false. Files already written are read and purged either way.
   */
  resultFiles: boolean;
  /**
   * LOG_FORMAT: `json` (one JSON object a line), `pretty` (readable lines), or `auto`: pretty
   * when `pagegrab serve` writes to a terminal, JSON otherwise. Default auto.
   */
  logFormat: LogFormat;
  /**
   * EXIT_WITH_PARENT: `pagegrab serve` stops (draining) when the process that started it is
   * gone (cli/parent-watch.ts). Default: true when npm started it (`npx pagegrab serve`,
   * `npm exec`, `npm run`: npm sets npm_command), false otherwise (a service under nohup
   * outlives its shell).
   */
  exitWithParent: boolean;
  /** CRAWL_HOST_CONCURRENCY: pages of one target host crawled at once (all crawls and nodes), default 4. */
  crawlHostConcurrency: number;
  /** CRAWL_HOST_DELAY_MS: least time between two crawl pages starting on one host, default 0. */
  crawlHostDelayMs: number;
  /** CRAWL_BACKOFF_MS: a 429/503 host's first wait when it sends no Retry-After (doubling to 60 s), default 1000. */
  crawlBackoffMs: number;
  /** CRAWL_MAX_URLS: pages one crawl holds at most (its `limit` is cut to it), default 100000. */
  crawlMaxUrls: number;
  /** CRAWL_MAX_STORED_BYTES: results one account's live crawls keep at most, default 1 GiB. */
  crawlMaxStoredBytes: number;
  /** CRAWL_ALLOW_IGNORE_ROBOTS: whether a crawl may ask to ignore robots.txt, default false. */
  crawlAllowIgnoreRobots: boolean;
  /** The language model of the door's json, summary and extract; null: none configured. */
  model: ModelSettings | null;
}

/**
 * An OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp's server), under
 * Firecrawl's self-host names: OPENAI_BASE_URL (or OLLAMA_BASE_URL, whose `/v1` is used;
 * OPENAI_API_KEY alone means OpenAI's own API), OPENAI_API_KEY, MODEL_NAME.
 */
export interface ModelSettings {
  /** Ends before `/chat/completions`, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string;
  /** OPENAI_API_KEY, sent as a bearer token; null: none (Ollama, a local server). */
  apiKey: string | null;
  /** MODEL_NAME; required with a base URL, default gpt-4o-mini on OpenAI's own API. */
  name: string;
  /** MODEL_CONTEXT_CHARS: page Markdown sent to the model is cut to this, default 100000. */
  contextChars: number;
  /** MODEL_TIMEOUT_MS: longest one model call may take, default 60000. */
  timeoutMs: number;
  /** PRICE_MODEL_CALL: credits per model call, on top of the scrape, default 4. */
  callPrice: number;
  /** EXTRACT_MAX_PAGES: pages one extract reads at most (its URLs, its `/*` sites), default 10. */
  extractMaxPages: number;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Every default, stated once: loadConfig falls back to these, and a module or test that needs
 * a setting's default imports it from here rather than repeating the figure.
 */
export const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  dataDir: './data',
  /** Tried first, then `chromium` on PATH. */
  chromiumPath: '/usr/lib/chromium/chromium',
  allowPrivateNetworks: false,
  logLevel: 'info',
  pricing: {
    baseFetch: 1,
    baseRender: 15,
    multipliers: { datacenter: 1, residential: 10, mobile: 25 },
  },
  maxBodyBytes: 20 * 1024 * 1024,
  accountConcurrency: 10,
  nodeConcurrency: 64,
  browserPages: 4,
  renderSettleMaxMs: 5_000,
  shutdownGraceMs: 30_000,
  webhookBackoffMs: 30_000,
  webhookTimeoutMs: 10_000,
  jobLeaseMs: 60_000,
  jobPollMs: 500,
  jobRetentionMs: 7 * 24 * 3600_000,
  webhookScrapeConcurrency: 8,
  webhookDeliveryConcurrency: 32,
  pgPoolSize: 10,
  pgConnectTimeoutMs: 10_000,
  pgStatementTimeoutMs: 30_000,
  markdownWorkers: 2,
  markdownWorkersAtStart: true,
  heapGrowingPercent: 25,
  markdownMaxMs: 10_000,
  pdfMaxPages: 300,
  documentMaxBytes: 10 * 1024 * 1024,
  screenshotRetentionMs: 24 * 3600_000,
  cacheRetentionMs: 2 * 24 * 3600_000,
  cacheHitPrice: 1,
  batchScrapeConcurrency: 10,
  batchRetentionMs: 24 * 3600_000,
  scheduleMinIntervalMs: 60_000,
  scheduleAllowSeconds: false,
  scheduleDisableAfterFailures: 5,
  schedulePollMs: 1000,
  scheduleMisfireMs: 60_000,
  scheduleRunConcurrency: 8,
  resultRetentionDays: 7,
  resultMaxBytes: 2 * 1024 * 1024,
  resultAccountBytes: 256 * 1024 * 1024,
  resultFiles: false,
  logFormat: 'auto',
  crawlHostConcurrency: 4,
  crawlHostDelayMs: 0,
  crawlBackoffMs: 1_000,
  crawlMaxUrls: 100_000,
  crawlMaxStoredBytes: 1024 * 1024 * 1024,
  crawlAllowIgnoreRobots: false,
  /** No model unless one is configured (MODEL_DEFAULTS then). */
  model: null,
} as const;

/** The defaults of a configured model (ModelSettings). */
export const MODEL_DEFAULTS = {
  openAiBaseUrl: 'https://api.openai.com/v1',
  openAiModel: 'gpt-4o-mini',
  contextChars: 100_000,
  timeoutMs: 60_000,
  callPrice: 4,
  extractMaxPages: 10,
} as const;

/**
 * DEBUG (any value but empty, 0 or false): the command line shows a failure's stack, as
 * `--verbose` does. Apart from loadConfig: a setting that fails to load is still reported.
 */
export function debugRequested(env: Env = process.env): boolean {
  const raw = env.DEBUG?.trim().toLowerCase();
  return raw !== undefined && raw !== '' && raw !== '0' && raw !== 'false';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const lower = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(lower)) return true;
  if (['false', '0', 'no'].includes(lower)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Debian's binary first: the /usr/bin/chromium wrapper adds flags and prints shell errors. */
function findChromium(env: Env): string | null {
  const candidates: string[] = [DEFAULTS.chromiumPath];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir) candidates.push(join(dir, 'chromium'), join(dir, 'chromium-browser'));
  }
  return candidates.find(isExecutable) ?? null;
}

function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return raw;
}

function publicUrl(env: Env): string | null {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** The package's root (this file is src/config.ts or dist/config.js), for built assets. */
const packageRoot = resolve(import.meta.dirname, '..');

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Firecrawl's self-host reads OLLAMA_BASE_URL as Ollama's own API; its OpenAI one is /v1. */
function ollamaOpenAiUrl(raw: string): string {
  return `${httpUrl('OLLAMA_BASE_URL', raw).replace(/\/(api|v1)$/, '')}/v1`;
}

function modelSettings(env: Env): ModelSettings | null {
  const apiKey = env.OPENAI_API_KEY?.trim() || null;
  const openAi = env.OPENAI_BASE_URL?.trim();
  const ollama = env.OLLAMA_BASE_URL?.trim();
  const baseUrl = openAi
    ? httpUrl('OPENAI_BASE_URL', openAi)
    : ollama
      ? ollamaOpenAiUrl(ollama)
      : apiKey
        ? MODEL_DEFAULTS.openAiBaseUrl
        : null;
  if (baseUrl === null) return null;
  const ownServer = Boolean(openAi || ollama);
  const name = env.MODEL_NAME?.trim() || (ownServer ? '' : MODEL_DEFAULTS.openAiModel);
  if (!name) {
    throw new ConfigError(
      `MODEL_NAME is required with ${openAi ? 'OPENAI_BASE_URL' : 'OLLAMA_BASE_URL'}: the model that server should run`,
    );
  }
  return {
    baseUrl,
    apiKey,
    name,
    contextChars: integer(
      env,
      'MODEL_CONTEXT_CHARS',
      MODEL_DEFAULTS.contextChars,
      1000,
      100_000_000,
    ),
    timeoutMs: integer(env, 'MODEL_TIMEOUT_MS', MODEL_DEFAULTS.timeoutMs, 100, 3_600_000),
    callPrice: positiveNumber(env, 'PRICE_MODEL_CALL', MODEL_DEFAULTS.callPrice),
    extractMaxPages: integer(env, 'EXTRACT_MAX_PAGES', MODEL_DEFAULTS.extractMaxPages, 1, 1000),
  };
}

function logFormat(env: Env): LogFormat {
  const raw = env.LOG_FORMAT?.trim().toLowerCase() || DEFAULTS.logFormat;
  if (raw === 'auto' || raw === 'json' || raw === 'pretty') return raw;
  throw new ConfigError(`LOG_FORMAT must be auto, json or pretty (got "${env.LOG_FORMAT}")`);
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? DEFAULTS.logLevel).trim().toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const chromiumPath = env.CHROMIUM_PATH?.trim() || findChromium(env);
  if (env.CHROMIUM_PATH && !isExecutable(env.CHROMIUM_PATH)) {
    throw new ConfigError(`CHROMIUM_PATH is not an executable file: ${env.CHROMIUM_PATH}`);
  }
  const price = DEFAULTS.pricing;
  return {
    port: integer(env, 'PORT', DEFAULTS.port, 0, 65535),
    host: env.HOST?.trim() || DEFAULTS.host,
    dataDir: resolve(env.DATA_DIR?.trim() || DEFAULTS.dataDir),
    databaseUrl: databaseUrl(env),
    nodeName: env.NODE_NAME?.trim() || null,
    chromiumPath,
    allowPrivateNetworks: boolean(env, 'ALLOW_PRIVATE_NETWORKS', DEFAULTS.allowPrivateNetworks),
    proxiesFile: env.PROXIES_FILE?.trim() || null,
    logLevel,
    pricing: {
      baseFetch: positiveNumber(env, 'PRICE_FETCH', price.baseFetch),
      baseRender: positiveNumber(env, 'PRICE_RENDER', price.baseRender),
      multipliers: {
        datacenter: positiveNumber(env, 'PRICE_MULT_DATACENTER', price.multipliers.datacenter),
        residential: positiveNumber(env, 'PRICE_MULT_RESIDENTIAL', price.multipliers.residential),
        mobile: positiveNumber(env, 'PRICE_MULT_MOBILE', price.multipliers.mobile),
      },
    },
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', DEFAULTS.maxBodyBytes, 1024, 1024 ** 3),
    accountConcurrency: integer(env, 'ACCOUNT_CONCURRENCY', DEFAULTS.accountConcurrency, 1, 10_000),
    nodeConcurrency: integer(env, 'NODE_CONCURRENCY', DEFAULTS.nodeConcurrency, 1, 100_000),
    browserPages: integer(env, 'BROWSER_PAGES', DEFAULTS.browserPages, 1, 256),
    renderSettleMaxMs: integer(env, 'RENDER_SETTLE_MAX_MS', DEFAULTS.renderSettleMaxMs, 1, 120_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', DEFAULTS.shutdownGraceMs, 0, 600_000),
    webhookBackoffMs: integer(env, 'WEBHOOK_BACKOFF_MS', DEFAULTS.webhookBackoffMs, 1, 3_600_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', DEFAULTS.webhookTimeoutMs, 100, 120_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', DEFAULTS.jobLeaseMs, 100, 3_600_000),
    // Polling only finds other nodes' jobs and retries coming due (own enqueues wake at once).
    jobPollMs: integer(env, 'JOB_POLL_MS', DEFAULTS.jobPollMs, 10, 60_000),
    // Ended jobs are only history (the request record keeps the state): a minute to a year.
    jobRetentionMs: integer(
      env,
      'JOB_RETENTION_MS',
      DEFAULTS.jobRetentionMs,
      60_000,
      365 * 24 * 3600_000,
    ),
    webhookScrapeConcurrency: integer(
      env,
      'WEBHOOK_SCRAPE_CONCURRENCY',
      DEFAULTS.webhookScrapeConcurrency,
      1,
      1024,
    ),
    webhookDeliveryConcurrency: integer(
      env,
      'WEBHOOK_DELIVERY_CONCURRENCY',
      DEFAULTS.webhookDeliveryConcurrency,
      1,
      1024,
    ),
    pgPoolSize: integer(env, 'PG_POOL_SIZE', DEFAULTS.pgPoolSize, 1, 1000),
    pgConnectTimeoutMs: integer(
      env,
      'PG_CONNECT_TIMEOUT_MS',
      DEFAULTS.pgConnectTimeoutMs,
      100,
      600_000,
    ),
    pgStatementTimeoutMs: integer(
      env,
      'PG_STATEMENT_TIMEOUT_MS',
      DEFAULTS.pgStatementTimeoutMs,
      100,
      3_600_000,
    ),
    markdownWorkers: integer(env, 'MARKDOWN_WORKERS', DEFAULTS.markdownWorkers, 1, 64),
    markdownWorkersAtStart: boolean(
      env,
      'MARKDOWN_WORKERS_AT_START',
      DEFAULTS.markdownWorkersAtStart,
    ),
    heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', DEFAULTS.heapGrowingPercent, 0, 300),
    markdownMaxMs: integer(env, 'MARKDOWN_MAX_MS', DEFAULTS.markdownMaxMs, 100, 600_000),
    pdfMaxPages: integer(env, 'PDF_MAX_PAGES', DEFAULTS.pdfMaxPages, 1, 100_000),
    documentMaxBytes: integer(
      env,
      'DOCUMENT_MAX_BYTES',
      DEFAULTS.documentMaxBytes,
      1024,
      1024 ** 3,
    ),
    filtersDir: resolve(env.FILTERS_DIR?.trim() || join(packageRoot, 'build', 'filters')),
    dashboardDir: resolve(env.DASHBOARD_DIR?.trim() || join(packageRoot, 'dist', 'dashboard')),
    publicUrl: publicUrl(env),
    screenshotRetentionMs: integer(
      env,
      'SCREENSHOT_RETENTION_MS',
      DEFAULTS.screenshotRetentionMs,
      60_000,
      365 * 24 * 3600_000,
    ),
    cacheRetentionMs: integer(
      env,
      'CACHE_RETENTION_MS',
      DEFAULTS.cacheRetentionMs,
      60_000,
      365 * 24 * 3600_000,
    ),
    cacheHitPrice: positiveNumber(env, 'PRICE_CACHE_HIT', DEFAULTS.cacheHitPrice),
    batchScrapeConcurrency: integer(
      env,
      'BATCH_SCRAPE_CONCURRENCY',
      DEFAULTS.batchScrapeConcurrency,
      1,
      1024,
    ),
    batchRetentionMs: integer(
      env,
      'BATCH_RETENTION_MS',
      DEFAULTS.batchRetentionMs,
      60_000,
      365 * 24 * 3600_000,
    ),
    scheduleMinIntervalMs: integer(
      env,
      'SCHEDULE_MIN_INTERVAL_MS',
      DEFAULTS.scheduleMinIntervalMs,
      1000,
      7 * 24 * 3600_000,
    ),
    scheduleAllowSeconds: boolean(env, 'SCHEDULE_ALLOW_SECONDS', DEFAULTS.scheduleAllowSeconds),
    scheduleDisableAfterFailures: integer(
      env,
      'SCHEDULE_DISABLE_AFTER_FAILURES',
      DEFAULTS.scheduleDisableAfterFailures,
      1,
      1000,
    ),
    schedulePollMs: integer(env, 'SCHEDULE_POLL_MS', DEFAULTS.schedulePollMs, 10, 60_000),
    scheduleMisfireMs: integer(
      env,
      'SCHEDULE_MISFIRE_MS',
      DEFAULTS.scheduleMisfireMs,
      1000,
      24 * 3600_000,
    ),
    scheduleRunConcurrency: integer(
      env,
      'SCHEDULE_RUN_CONCURRENCY',
      DEFAULTS.scheduleRunConcurrency,
      1,
      1024,
    ),
    resultRetentionDays: integer(
      env,
      'RESULT_RETENTION_DAYS',
      DEFAULTS.resultRetentionDays,
      0,
      3650,
    ),
    logFormat: logFormat(env),
    exitWithParent: boolean(env, 'EXIT_WITH_PARENT', Boolean(env.npm_command)),
    resultMaxBytes: integer(env, 'RESULT_MAX_BYTES', DEFAULTS.resultMaxBytes, 0, 1024 ** 3),
    resultAccountBytes: integer(
      env,
      'RESULT_ACCOUNT_BYTES',
      DEFAULTS.resultAccountBytes,
      0,
      1024 ** 4,
    ),
    resultFiles: boolean(env, 'RESULT_FILES', DEFAULTS.resultFiles),
    crawlHostConcurrency: integer(
      env,
      'CRAWL_HOST_CONCURRENCY',
      DEFAULTS.crawlHostConcurrency,
      1,
      1024,
    ),
    crawlHostDelayMs: integer(env, 'CRAWL_HOST_DELAY_MS', DEFAULTS.crawlHostDelayMs, 0, 600_000),
    crawlBackoffMs: integer(env, 'CRAWL_BACKOFF_MS', DEFAULTS.crawlBackoffMs, 1, 60_000),
    crawlMaxUrls: integer(env, 'CRAWL_MAX_URLS', DEFAULTS.crawlMaxUrls, 1, 10_000_000),
    crawlMaxStoredBytes: integer(
      env,
      'CRAWL_MAX_STORED_BYTES',
      DEFAULTS.crawlMaxStoredBytes,
      1024,
      Number.MAX_SAFE_INTEGER,
    ),
    crawlAllowIgnoreRobots: boolean(
      env,
      'CRAWL_ALLOW_IGNORE_ROBOTS',
      DEFAULTS.crawlAllowIgnoreRobots,
    ),
    model: modelSettings(env),
  };
}
