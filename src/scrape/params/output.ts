import type { EngineName, OutputType, ScrapeOptions } from '../types.js';

/**
 * The one output of a request (contract 10). parseScraperRequest has already refused
 * markdown with a screenshot; screenshot with screenshot_full_page is a full-page screenshot.
 */
export function outputTypeOf(
  options: Pick<ScrapeOptions, 'markdown' | 'screenshot' | 'screenshotFullPage'>,
): OutputType {
  if (options.markdown) return 'markdown';
  if (options.screenshot || options.screenshotFullPage) return 'screenshot';
  return 'html';
}

/** render=true needs a browser; everything else is a plain fetch (contract 12 blocks statically). */
export function engineOf(options: Pick<ScrapeOptions, 'render'>): EngineName {
  return options.render ? 'browser' : 'fetch';
}
