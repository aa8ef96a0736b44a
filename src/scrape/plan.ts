/**
 * Turns validated options into a plan: engine, output, proxies, deadline. Checks that can
 * refuse the request (proxy availability, the target's address) run here, before any credit
 * moves.
 */
import { appError } from '../errors.js';
import type { ProxyPools } from './net/proxy-pools.js';
import { assertPublicUrl, type GuardOptions } from './net/ssrf-guard.js';
import { engineOf, outputTypeOf } from './params/index.js';
import type { ProxyEndpoint, ScrapeOptions, ScrapePlan } from './types.js';

export interface Planner {
  /** 400 `Proxy unavailable: ...` when no configured proxy matches. */
  proxiesFor(options: ScrapeOptions): ProxyEndpoint[];
  /** 400 `URL is not allowed: ...` for a non-public target or webhook. */
  assertAllowed(url: string): Promise<void>;
}

export function createPlanner(pools: ProxyPools, guard: GuardOptions): Planner {
  return {
    proxiesFor: (options) => pools.select(options.proxyType, options.proxyCountry),
    async assertAllowed(url) {
      await assertPublicUrl(url, guard);
    },
  };
}

/** The budget starts when the scrape starts, so time spent queued for a job does not count. */
export function planScrape(
  options: ScrapeOptions,
  proxies: ProxyEndpoint[],
  parentSignal?: AbortSignal,
): { plan: ScrapePlan; dispose(): void } {
  const controller = new AbortController();
  const deadline = Date.now() + options.timeoutMs;
  const timer = setTimeout(
    () => controller.abort(appError('TIMED_OUT', options.timeoutMs)),
    options.timeoutMs,
  );
  const onParentAbort = () => controller.abort(parentSignal?.reason);
  parentSignal?.addEventListener('abort', onParentAbort, { once: true });
  return {
    plan: {
      options,
      engine: engineOf(options),
      output: outputTypeOf(options),
      proxies,
      deadline,
      signal: controller.signal,
    },
    dispose() {
      clearTimeout(timer);
      parentSignal?.removeEventListener('abort', onParentAbort);
    },
  };
}
