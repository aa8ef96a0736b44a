/** Builds a render=false ScrapePlan for the fetch engine suites. */
import type { ProxyEndpoint, ScrapeOptions, ScrapePlan } from '../../../src/scrape/types.js';

export function fetchPlan(
  url: string,
  {
    timeoutMs = 10_000,
    proxies = [] as ProxyEndpoint[],
    signal = undefined as AbortSignal | undefined,
  } = {},
): ScrapePlan {
  const options: ScrapeOptions = {
    url,
    render: false,
    windowWidth: 1920,
    windowHeight: 1080,
    screenshot: false,
    screenshotFullPage: false,
    markdown: false,
    blockResources: [],
    blockAds: false,
    blockCookieBanners: false,
    blockChatWidgets: false,
    webhookUrl: null,
    proxyType: 'datacenter',
    proxyCountry: null,
    instructions: [],
    timeoutMs,
  };
  return {
    options,
    engine: 'fetch',
    output: 'html',
    proxies,
    deadline: Date.now() + timeoutMs,
    signal: signal ?? new AbortController().signal,
  };
}
