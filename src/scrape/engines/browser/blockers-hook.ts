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
  /**
   * @param bannerInPage false when `bannerCss` matched nothing visible: then only a pop-up
   *   the rejector already found is waited for (default true: the quiet period is waited out).
   */
  settled(budgetMs: number, quietMs?: number, bannerInPage?: boolean): Promise<unknown>;
  /**
   * Switches the installed rejector on for a new render on the same page, and returns that
   * render's handle. Without it the page is retired after its render (its init script stays).
   */
  begin?(): ConsentHandle;
  /** Switches it off between renders. */
  end?(): void;
}

export interface BrowserBlockersHook {
  matchesNetworkBlock(request: NetworkRequestInfo, which: BlockSelection): boolean;
  cosmeticCss(pageUrl: string, which: BlockSelection, dom?: DomTokens): string;
  /**
   * Optional in-page function (serialised by Playwright) collecting the DOM's tokens, so
   * `cosmeticCss` returns only the generic rules that can match (KBs instead of ~250 KB).
   */
  collectDomTokensInPage?: () => DomTokens;
  /**
   * Optional: the cookie-notice list's stylesheet for the page (`dom` as for `cosmeticCss`).
   * What it matches on screen is a banner the rejector is given time to reject; without it,
   * or where it matches, the rejector's quiet period is waited out.
   */
  bannerCss?(pageUrl: string, dom?: DomTokens): string;
  /**
   * Adds init scripts and bindings to the page, for good: a page that has them serves only
   * renders with cookie-banner blocking (their own pool key), each through `begin()`.
   * @param scriptName the name its script runs under (a `sourceURL`): the settle leaves the
   *   timers of a script of that name out of the page's pending work (warm-page.ts)
   */
  installConsentRejector(page: Page, scriptName?: string): Promise<ConsentHandle | undefined>;
}

export function anyBlocker(which: BlockSelection): boolean {
  return which.ads || which.cookieBanners || which.chatWidgets;
}
