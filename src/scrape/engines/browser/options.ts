/**
 * The browser engine's settings. Every limit is explicit and documented with its default
 * (crawlee's browser-pool is the model): the composition root passes values from config.ts.
 */
import { DEFAULTS } from '../../../config.js';
import type { ProxyHealth } from '../../net/proxy-health.js';
import type { SessionStore } from '../../net/sessions.js';
import type { GuardOptions } from '../../net/ssrf-guard.js';
import type { BrowserBlockersHook } from './blockers-hook.js';

export interface BrowserEngineOptions {
  /**
   * CHROMIUM_PATH: the Chromium binary. Default `DEFAULTS.chromiumPath`, Debian's real binary
   * (not the wrapper script).
   */
  executablePath?: string;
  /**
   * ALLOW_PRIVATE_NETWORKS: when true the page may reach loopback/private addresses and
   * contexts connect directly. When false every context goes through the guard proxy in
   * this process (src/scrape/net/guard-proxy.ts), chained to the plan's upstream.
   */
  allowPrivateNetworks: boolean;
  /**
   * BROWSER_PAGES: pages rendering at once on this node, over all browsers (CPU-bound beyond
   * a few on 2 cores). Default `DEFAULTS.browserPages` (4).
   */
  maxConcurrentPages?: number;
  /**
   * MAX_BODY_BYTES: the most decoded bytes one render may receive, its document and every
   * sub-resource together, and the longest HTML it may return; past it the load is stopped
   * and the render fails as a fetch of an oversize body does (502). Default
   * `DEFAULTS.maxBodyBytes` (20 MiB).
   */
  maxBodyBytes?: number;
  /** Requests waiting for a page before `NODE_SATURATED` (503). Default 64. */
  maxQueuedRequests?: number;
  /** Chromium processes kept warm. Default 1. */
  browsers?: number;
  /** A browser is retired (drained, then closed) after creating this many contexts. Default 200. */
  retireAfterContexts?: number;
  /**
   * A warm page (context + tab) is reset and reused for this many renders, then closed.
   * 1 means a fresh context per request. Default 50.
   */
  pageReuseLimit?: number;
  /**
   * A warm page is also closed once it has routed this many requests: Playwright keeps every
   * routed request's objects (~19 KB of heap each) until the page closes, so 50 renders of a
   * page with 300 sub-requests held ~290 MB. Default 2000.
   */
  pageRequestLimit?: number;
  /** Ceiling of every single browser operation (launch, new context, reset, close). Default 15000 ms. */
  operationTimeoutMs?: number;
  /**
   * Full-page screenshots stop at this height in device pixels (Chromium's texture limit):
   * CSS pixels on a desktop, a third of it for mobile's 3x. Default 16384.
   */
  maxFullPageHeight?: number;
  /**
   * How long a `click` or `fill` step waits for its target to become actionable once it
   * exists (a missing target fails at once). Default 5000 ms, capped by the budget.
   */
  actionTimeoutMs?: number;
  /**
   * The longest a `settled` render waits after the load event for the page's work to end
   * (page-settle.ts), within the budget. Default RENDER_SETTLE_MAX_MS (5000 ms).
   */
  settleMaxMs?: number;
  /**
   * Service workers: 'block' (default) because their fetches bypass the route that enforces
   * SSRF and resource blocking; 'allow' only for tests that prove the reset removes them.
   */
  serviceWorkers?: 'block' | 'allow';
  /** In-browser ad/cookie/chat blocking (src/scrape/blockers). Default: none (options ignored). */
  blockers?: BrowserBlockersHook;
  /**
   * DNS resolver and address policy for the SSRF check (the route's and the guard proxy's).
   * Default: the system resolver and `isPublicAddress`. Tests substitute them to tell
   * loopback hosts apart; with a substituted lookup Chromium needs no DNS for test names.
   */
  guard?: Pick<GuardOptions, 'lookup' | 'isAllowedAddress'>;
  /** Extra Chromium switches (appended). Do not pass --disable-features: it replaces Playwright's list. */
  extraArgs?: string[];
  /** Where connection failures through a proxy are counted (and proxies benched). Default: nowhere. */
  health?: ProxyHealth;
  /** Sticky sessions: their cookies carry from render to render. Default: none. */
  sessions?: SessionStore;
}

type Optional = 'blockers' | 'guard' | 'health' | 'sessions';
export type ResolvedBrowserOptions = Required<Omit<BrowserEngineOptions, Optional>> &
  Pick<BrowserEngineOptions, Optional>;

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`browser engine: ${name} must be a positive integer, got ${value}`);
  }
  return value;
}

export function resolveOptions(options: BrowserEngineOptions): ResolvedBrowserOptions {
  return {
    executablePath: options.executablePath ?? DEFAULTS.chromiumPath,
    allowPrivateNetworks: options.allowPrivateNetworks,
    maxConcurrentPages: positiveInt(
      'maxConcurrentPages',
      options.maxConcurrentPages ?? DEFAULTS.browserPages,
    ),
    maxBodyBytes: positiveInt('maxBodyBytes', options.maxBodyBytes ?? DEFAULTS.maxBodyBytes),
    maxQueuedRequests: options.maxQueuedRequests ?? 64,
    browsers: positiveInt('browsers', options.browsers ?? 1),
    retireAfterContexts: positiveInt('retireAfterContexts', options.retireAfterContexts ?? 200),
    pageReuseLimit: positiveInt('pageReuseLimit', options.pageReuseLimit ?? 50),
    pageRequestLimit: positiveInt('pageRequestLimit', options.pageRequestLimit ?? 2000),
    operationTimeoutMs: positiveInt('operationTimeoutMs', options.operationTimeoutMs ?? 15_000),
    maxFullPageHeight: positiveInt('maxFullPageHeight', options.maxFullPageHeight ?? 16_384),
    actionTimeoutMs: positiveInt('actionTimeoutMs', options.actionTimeoutMs ?? 5_000),
    settleMaxMs: positiveInt('settleMaxMs', options.settleMaxMs ?? DEFAULTS.renderSettleMaxMs),
    serviceWorkers: options.serviceWorkers ?? 'block',
    blockers: options.blockers,
    guard: options.guard,
    health: options.health,
    sessions: options.sessions,
    extraArgs: options.extraArgs ?? [],
  };
}
