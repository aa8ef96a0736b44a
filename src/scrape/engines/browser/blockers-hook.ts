/**
 * What the browser engine needs from src/scrape/blockers. The composition root builds the
 * filter engines once and passes `{ engines, matchesNetworkBlock, cosmeticCss,
 * collectDomTokensInPage, installConsentRejector }`; the engine never loads lists itself,
 * so its tests run without them.
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
  /** URL of the top-level page the request belongs to. */
  sourceUrl: string;
}

/** Class names, ids and link targets present in the page (the blockers' `DomTokens`). */
export interface DomTokens {
  classes: string[];
  ids: string[];
  hrefs: string[];
}

/** What installConsentRejector hands back: lets the engine wait (bounded) for the banner's fate. */
export interface ConsentHandle {
  settled(budgetMs: number): Promise<unknown>;
}

export interface BrowserBlockersHook<Engines = unknown> {
  engines: Engines;
  matchesNetworkBlock(
    engines: Engines,
    request: NetworkRequestInfo,
    which: BlockerSelection,
  ): boolean;
  cosmeticCss(engines: Engines, pageUrl: string, which: BlockerSelection, dom?: DomTokens): string;
  /**
   * Optional in-page function (serialised by Playwright) collecting the DOM's tokens, so
   * `cosmeticCss` returns only the generic rules that can match (KBs instead of ~250 KB).
   */
  collectDomTokensInPage?: () => DomTokens;
  /** Adds init scripts and bindings to the page: that page is not reused afterwards. */
  installConsentRejector(page: Page): Promise<ConsentHandle | undefined>;
}

export function anyBlocker(which: BlockerSelection): boolean {
  return which.ads || which.cookieBanners || which.chatWidgets;
}
