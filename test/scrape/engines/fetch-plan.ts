/** Builds a render=false ScrapePlan for the fetch engine suites. */
import { DEFAULT_SCRAPE_OPTIONS } from '../../../src/scrape/params/index.js';
import type { ProxyEndpoint, ScrapeOptions, ScrapePlan } from '../../../src/scrape/types.js';

export function fetchPlan(
  url: string,
  {
    timeoutMs = 10_000,
    proxies = [] as ProxyEndpoint[],
    signal = undefined as AbortSignal | undefined,
  } = {},
): ScrapePlan {
  const options: ScrapeOptions = { ...DEFAULT_SCRAPE_OPTIONS, url, timeoutMs };
  return {
    options,
    engine: 'fetch',
    output: 'html',
    proxies,
    deadline: Date.now() + timeoutMs,
    signal: signal ?? new AbortController().signal,
  };
}
