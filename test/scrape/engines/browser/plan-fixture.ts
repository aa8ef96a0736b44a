/** Builds runs for the browser engine's tests. */
import { DEFAULT_SCRAPE_OPTIONS } from '../../../../src/scrape/params/index.js';
import type { ProxyEndpoint, ScrapeOptions, ScrapeRun } from '../../../../src/scrape/types.js';

export function renderPlan(
  url: string,
  options: Partial<ScrapeOptions> = {},
  extra: { proxies?: ProxyEndpoint[]; output?: ScrapeRun['output']; isolationKey?: string } = {},
): ScrapeRun {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const full: ScrapeOptions = {
    ...DEFAULT_SCRAPE_OPTIONS,
    url,
    render: true,
    windowWidth: 800,
    windowHeight: 600,
    timeoutMs,
    ...options,
  };
  const output =
    extra.output ?? (full.screenshot || full.screenshotFullPage ? 'screenshot' : 'html');
  return {
    options: full,
    engine: 'browser',
    output,
    block:
      full.blockAds || full.blockCookieBanners || full.blockChatWidgets
        ? {
            ads: full.blockAds,
            cookieBanners: full.blockCookieBanners,
            chatWidgets: full.blockChatWidgets,
          }
        : null,
    proxies: extra.proxies ?? [],
    isolationKey: extra.isolationKey ?? 'test-account',
    deadline: Date.now() + timeoutMs,
    signal: new AbortController().signal,
  };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
