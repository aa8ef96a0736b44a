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

/** Width and height from a baseline or progressive JPEG's frame header. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      return { width: jpeg.readUInt16BE(at + 7), height: jpeg.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  throw new Error('no frame header');
}
