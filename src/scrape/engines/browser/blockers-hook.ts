/**
 * What the browser engine needs from src/scrape/blockers. The composition root builds the
 * filter engines once and passes `{ engines, ...blockersModule }`; the engine never loads
 * lists itself, so tests can run without them.
 */
import type { Page } from 'playwright-core';

/** Which blocker families a request asked for. */
export interface BlockerSelection {
  ads: boolean;
  cookieBanners: boolean;
  chatWidgets: boolean;
}

export interface NetworkRequestInfo {
  url: string;
  /** Playwright's resource type (document, script, image, ...). */
  type: string;
  /** URL of the document that made the request. */
  sourceUrl: string;
}

export interface BrowserBlockersHook<Engines = unknown> {
  engines: Engines;
  matchesNetworkBlock(
    engines: Engines,
    request: NetworkRequestInfo,
    which: BlockerSelection,
  ): boolean;
  cosmeticCss(engines: Engines, pageUrl: string, which: BlockerSelection): string;
  /** Adds init scripts/bindings to the page: the page cannot be reused afterwards. */
  installConsentRejector(page: Page): Promise<void>;
}

export function anyBlocker(which: BlockerSelection): boolean {
  return which.ads || which.cookieBanners || which.chatWidgets;
}
