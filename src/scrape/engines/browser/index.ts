/**
 * The browser engine (render=true): `createBrowserEngine(options)` builds a pool of warm
 * Chromium browsers and renders ScrapePlans into PageSnapshots. See options.ts for every
 * limit and its default, warm-page.ts for the isolation guarantee between requests.
 */
import { type AppError, appError, isAppError } from '../../../errors.js';
import { type GuardProxy, startGuardProxy } from '../../net/guard-proxy.js';
import { type Session, type SessionCookie, SessionStore } from '../../net/sessions.js';
import type { PageSnapshot, ProxyEndpoint, ScrapeRun } from '../../types.js';
import { bodyTooLarge } from '../fetch/read-body.js';
import {
  asBrowserFailure,
  isClosedError,
  isProxyFailure,
  navigationError,
  netErrorCode,
} from './browser-errors.js';
import { BrowserPool } from './browser-pool.js';
import { Budget } from './budget.js';
import { type ContextNetwork, directNetwork, guardedNetwork } from './context-network.js';
import { type BrowserEngineOptions, resolveOptions } from './options.js';
import { profileKey, profileOf } from './page-profile.js';
import { PageSlots } from './page-slots.js';
import { proxyKey, redactedProxy } from './proxy-settings.js';
import { blockerSelection, renderOnPage } from './render-page.js';
import { isChromiumServiceHost, RequestPolicy } from './request-policy.js';
import { blockedPlaywrightTypes } from './resource-types.js';

export type { BrowserBlockersHook } from './blockers-hook.js';
export type { BrowserEngineOptions } from './options.js';

/** For /readyz and the pressure endpoint. */
export interface BrowserPoolStatus {
  /** Chromium processes running. */
  browsersUp: number;
  /** Renders holding a page slot now. */
  pagesInUse: number;
  /** maxConcurrentPages. */
  capacity: number;
  /** Renders waiting for a slot. */
  queued: number;
  /** Warm pages waiting for a request. */
  idlePages: number;
  /** Browser launches since start (1 + relaunches + retirements). */
  launches: number;
  contextsCreated: number;
  /** Resets that emptied the page's document without navigating to about:blank. */
  resetsInPlace: number;
  /** Browsers that exited without being retired. */
  crashes: number;
  /** Contexts and tabs open in Chromium (warm idle ones included): leak check. */
  openContexts: number;
  openPages: number;
  /** OS pids of the browser processes (metrics, tests). */
  pids: number[];
  /** Contexts holding a guard-proxy ticket (one per open guarded context: leak check). */
  guardTickets: number;
}

export interface BrowserEngine {
  render(plan: ScrapeRun): Promise<PageSnapshot>;
  status(): BrowserPoolStatus;
  /** Launches the first browser ahead of traffic (optional: render launches on demand). */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export function createBrowserEngine(input: BrowserEngineOptions): BrowserEngine {
  const options = resolveOptions(input);
  const pool = new BrowserPool(options);
  const slots = new PageSlots(options.maxConcurrentPages, options.maxQueuedRequests);
  // The guard proxy starts with the first render that needs it and closes with the engine.
  // With private networks allowed there is nothing to refuse, so contexts go direct.
  let guard: Promise<GuardProxy> | null = null;
  let guardUp: GuardProxy | null = null;
  const startGuard = (): Promise<GuardProxy> => {
    guard ??= startGuardProxy({
      guard: options.guard ?? {},
      refuseHost: isChromiumServiceHost,
    }).then((started) => {
      guardUp = started;
      return started;
    });
    return guard;
  };

  // A session that ends (5 minutes idle) takes its page, and so its connections, with it.
  const stopDiscarding =
    options.sessions?.onEnd((session) => pool.discard(sessionKeySuffix(session))) ?? (() => {});

  async function networkFor(proxy: ProxyEndpoint | null): Promise<() => ContextNetwork> {
    if (options.allowPrivateNetworks) return () => directNetwork(proxy);
    const started = await startGuard();
    return () => guardedNetwork(started, proxy, options.maxBodyBytes);
  }

  async function renderVia(
    proxy: ProxyEndpoint | null,
    plan: ScrapeRun,
    budget: Budget,
    releases: Promise<void>[],
  ): Promise<PageSnapshot> {
    const profile = profileOf(plan.options, proxy);
    const session = sessionOf(plan);
    // A session has a page of its own, which keeps its connections out between renders; the
    // consent rejector's pages serve only renders that reject (page-blockers.ts).
    const consent = blockerSelection(plan).cookieBanners && options.blockers ? '|consent' : '';
    const warm = await pool.acquire(
      `${plan.isolationKey}|${proxyKey(proxy)}|${profileKey(profile)}${consent}${session ? sessionKeySuffix(session) : ''}`,
      profile,
      await budget.race(networkFor(proxy)),
      budget,
    );
    warm.keepConnections = session !== null;
    warm.network.clear();
    const blockedTypes = blockedPlaywrightTypes(plan.options.blockResources);
    warm.policy = new RequestPolicy({
      allowPrivate: options.allowPrivateNetworks,
      guard: options.guard,
      blockedTypes,
      blockers: options.blockers,
      which: blockerSelection(plan),
      ...(plan.followRedirect ? { followRedirect: plan.followRedirect } : {}),
    });
    let unsubscribe = () => {};
    const failed = new Promise<never>((_, reject) => {
      unsubscribe = warm.onFailure((reason) => reject(appError('BROWSER_FAILED', reason)));
    });
    failed.catch(() => {});
    // Past MAX_BODY_BYTES the load stops at once, not when the page would have loaded.
    const tooLarge = new Promise<never>((_, reject) => {
      warm.limitBytes(options.maxBodyBytes, () => reject(bodyTooLarge(options.maxBodyBytes)));
    });
    tooLarge.catch(() => {});
    try {
      // Inside the try: a page that failed here is released (and retired) like any other.
      if (plan.followRedirect) await budget.race(warm.vetRedirects());
      if (blockedTypes.has('websocket')) await budget.race(warm.vetWebSockets());
      if (session && session.cookies.length > 0) {
        await budget.race(warm.context.addCookies(session.cookies as never));
      }
      const snapshot = await Promise.race([
        renderOnPage(warm, plan, budget, options),
        failed,
        tooLarge,
      ]);
      if (session) {
        session.cookies = (await budget.race(warm.context.cookies())) as unknown as SessionCookie[];
        options.sessions?.touch(session);
      }
      // Without an upstream proxy (none configured) the planned type stands, as in the price.
      return {
        ...snapshot,
        used: { engine: 'browser', proxyType: proxy?.type ?? plan.options.proxyType },
        via: proxy,
      };
    } catch (error) {
      warm.tainted = true;
      if (warm.failure !== null && !isAppError(error))
        throw appError('BROWSER_FAILED', warm.failure);
      throw error;
    } finally {
      unsubscribe();
      warm.unlimitBytes();
      releases.push(pool.release(warm).catch(() => {}));
    }
  }

  function sessionOf(plan: ScrapeRun): Session | null {
    const { sessionId, proxyType, proxyCountry } = plan.options;
    if (!sessionId || !options.sessions) return null;
    return options.sessions.get(plan.isolationKey, sessionId, proxyType, proxyCountry);
  }

  async function render(plan: ScrapeRun): Promise<PageSnapshot> {
    const budget = new Budget(plan.deadline, plan.options.timeoutMs, plan.signal);
    await slots.acquire(budget);
    // The slot is held until the page is reset, so reset CPU counts against capacity.
    const releases: Promise<void>[] = [];
    try {
      const candidates = plan.proxies.length > 0 ? plan.proxies.slice(0, 2) : [null];
      for (let attempt = 0; ; attempt += 1) {
        const proxy = candidates[attempt] ?? null;
        try {
          return await renderVia(proxy, plan, budget, releases);
        } catch (error) {
          if (proxy !== null && isProxyFailure(error)) options.health?.record(proxy, 'failed');
          // Contract 2.20: a proxy that fails to connect is retried once on another (a
          // session keeps its one proxy).
          if (isProxyFailure(error) && attempt + 1 < candidates.length) continue;
          throw classify(error, proxy);
        }
      }
    } finally {
      void Promise.all(releases).finally(() => slots.release());
    }
  }

  return {
    render,
    status: () => {
      const stats = pool.stats();
      return {
        browsersUp: stats.browsersUp,
        pagesInUse: slots.active,
        capacity: slots.capacity,
        queued: slots.queued,
        idlePages: stats.idlePages,
        launches: stats.launches,
        contextsCreated: stats.contextsCreated,
        resetsInPlace: stats.resetsInPlace,
        crashes: stats.crashes,
        openContexts: stats.openContexts,
        openPages: stats.openPages,
        pids: stats.pids,
        guardTickets: guardUp?.tickets() ?? 0,
      };
    },
    warmUp: () =>
      pool.warmUp(new Budget(Date.now() + options.operationTimeoutMs, options.operationTimeoutMs)),
    close: async () => {
      stopDiscarding();
      slots.rejectAll(appError('NOT_READY', 'the browser pool is shut down'));
      await pool.close();
      const started = await guard?.catch(() => null);
      await started?.close();
    },
  };
}

function classify(error: unknown, proxy: ProxyEndpoint | null): AppError {
  if (isAppError(error)) return error;
  if (isProxyFailure(error) && proxy !== null) {
    return appError(
      'FETCH_FAILED',
      `proxy ${redactedProxy(proxy)} failed (${netErrorCode(error)})`,
    );
  }
  if (netErrorCode(error) !== null || /Download is starting/.test(String(error))) {
    return navigationError(error);
  }
  if (isClosedError(error)) return appError('BROWSER_FAILED', 'the browser closed the page');
  if (error instanceof Error && error.name === 'TimeoutError') {
    return appError('BROWSER_FAILED', 'a browser operation timed out');
  }
  return asBrowserFailure(error);
}

/** The end of a sticky session's pool key (BrowserPool.discard finds its pages by it). */
function sessionKeySuffix(session: Session): string {
  return `|session:${SessionStore.keyOf(session.accountId, session.sessionId)}`;
}
