/** Builds a render=false run for the fetch engine suites. */
import { DEFAULT_SCRAPE_OPTIONS } from '../../../src/scrape/params/index.js';
import type { ProxyEndpoint, ScrapeOptions, ScrapeRun } from '../../../src/scrape/types.js';

export function fetchPlan(
  url: string,
  {
    timeoutMs = 10_000,
    proxies = [] as ProxyEndpoint[],
    signal = undefined as AbortSignal | undefined,
  } = {},
): ScrapeRun {
  const options: ScrapeOptions = { ...DEFAULT_SCRAPE_OPTIONS, url, timeoutMs };
  return {
    options,
    engine: 'fetch',
    output: 'html',
    block: null,
    proxies,
    isolationKey: 'test-account',
    deadline: Date.now() + timeoutMs,
    signal: signal ?? new AbortController().signal,
  };
}
