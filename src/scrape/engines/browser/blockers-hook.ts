/**
 * What the browser engine needs from src/scrape/blockers. The composition root loads the
 * filter engines once and hands in these functions with the engines bound; the engine never
 * loads lists itself, so its tests run without them.
 */
import type { Page } from 'playwright-core';
import type { DomTokens } from '../../blockers/filter-engines.js';
import type { BlockSelection } from '../../types.js';

export interface NetworkRequestInfo {
  url: string;
  /** Playwright's resource type (document, script, image, ...). */
  type: string;
  /** URL of the top-level page the request belongs to. */
  sourceUrl: string;
}

/** What installConsentRejector hands back: lets the engine wait (bounded) for the banner's fate. */
export interface ConsentHandle {
  settled(budgetMs: number): Promise<unknown>;
}

export interface BrowserBlockersHook {
  matchesNetworkBlock(request: NetworkRequestInfo, which: BlockSelection): boolean;
  cosmeticCss(pageUrl: string, which: BlockSelection, dom?: DomTokens): string;
  /**
   * Optional in-page function (serialised by Playwright) collecting the DOM's tokens, so
   * `cosmeticCss` returns only the generic rules that can match (KBs instead of ~250 KB).
   */
  collectDomTokensInPage?: () => DomTokens;
  /** Adds init scripts and bindings to the page: that page is not reused afterwards. */
  installConsentRejector(page: Page): Promise<ConsentHandle | undefined>;
}

export function anyBlocker(which: BlockSelection): boolean {
  return which.ads || which.cookieBanners || which.chatWidgets;
}
