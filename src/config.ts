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
  /** MAX_BODY_BYTES: largest target body accepted, default 20 MiB (then 502). */
  maxBodyBytes: number;
  /** ACCOUNT_CONCURRENCY: default concurrent scrapes per account, default 10. */
  accountConcurrency: number;
  /** NODE_CONCURRENCY: scrapes in flight on this node before 503, default 64. */
  nodeConcurrency: number;
  /** BROWSER_PAGES: concurrent pages in the browser pool, default 4. */
  browserPages: number;
  /** SHUTDOWN_GRACE_MS: how long in-flight requests may run after SIGTERM, default 30000. */
  shutdownGraceMs: number;
  /** WEBHOOK_BACKOFF_MS: base of the webhook retry backoff, default 30000 (8 tries ≈ 1 h). */
  webhookBackoffMs: number;
  /** WEBHOOK_TIMEOUT_MS: per-attempt delivery timeout, default 10000. */
  webhookTimeoutMs: number;
  /** JOB_LEASE_MS: how long a job lock lasts before another node may take it, default 60000. */
  jobLeaseMs: number;
  /** PG_POOL_SIZE: PostgreSQL connections per node (with DATABASE_URL), default 10. */
  pgPoolSize: number;
  /**
   * MARKDOWN_WORKERS: worker threads that convert pages to Markdown and run the render=false
   * ad/cookie/chat blocker, default 2.
   */
  markdownWorkers: number;
  /**
   * MARKDOWN_MAX_MS: longest one page may spend in those workers (render=false blocking plus
   * Markdown conversion) before 504, default 10000.
   */
  markdownMaxMs: number;
  /** FILTERS_DIR: the built ad/cookie filter engines, default <package>/build/filters. */
  filtersDir: string;
  /** DASHBOARD_DIR: the built dashboard, default <package>/dist/dashboard. */
  dashboardDir: string;
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
  const candidates = ['/usr/lib/chromium/chromium'];
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

/** The package's root (this file is src/config.ts or dist/config.js), for built assets. */
const packageRoot = resolve(import.meta.dirname, '..');

export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const chromiumPath = env.CHROMIUM_PATH?.trim() || findChromium(env);
  if (env.CHROMIUM_PATH && !isExecutable(env.CHROMIUM_PATH)) {
    throw new ConfigError(`CHROMIUM_PATH is not an executable file: ${env.CHROMIUM_PATH}`);
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl: databaseUrl(env),
    chromiumPath,
    allowPrivateNetworks: boolean(env, 'ALLOW_PRIVATE_NETWORKS', false),
    proxiesFile: env.PROXIES_FILE?.trim() || null,
    logLevel,
    pricing: {
      baseFetch: positiveNumber(env, 'PRICE_FETCH', 1),
      baseRender: positiveNumber(env, 'PRICE_RENDER', 15),
      multipliers: {
        datacenter: positiveNumber(env, 'PRICE_MULT_DATACENTER', 1),
        residential: positiveNumber(env, 'PRICE_MULT_RESIDENTIAL', 10),
        mobile: positiveNumber(env, 'PRICE_MULT_MOBILE', 25),
      },
    },
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 20 * 1024 * 1024, 1024, 1024 ** 3),
    accountConcurrency: integer(env, 'ACCOUNT_CONCURRENCY', 10, 1, 10_000),
    nodeConcurrency: integer(env, 'NODE_CONCURRENCY', 64, 1, 100_000),
    browserPages: integer(env, 'BROWSER_PAGES', 4, 1, 256),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 30_000, 0, 600_000),
    webhookBackoffMs: integer(env, 'WEBHOOK_BACKOFF_MS', 30_000, 1, 3_600_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 60_000, 100, 3_600_000),
    pgPoolSize: integer(env, 'PG_POOL_SIZE', 10, 1, 1000),
    markdownWorkers: integer(env, 'MARKDOWN_WORKERS', 2, 1, 64),
    markdownMaxMs: integer(env, 'MARKDOWN_MAX_MS', 10_000, 100, 600_000),
    filtersDir: resolve(env.FILTERS_DIR?.trim() || join(packageRoot, 'build', 'filters')),
    dashboardDir: resolve(env.DASHBOARD_DIR?.trim() || join(packageRoot, 'dist', 'dashboard')),
  };
}
