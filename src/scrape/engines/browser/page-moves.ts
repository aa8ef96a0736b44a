/**
 * A render ends on a web page or fails. A page whose script or meta refresh moves it, after
 * the load, to an address the guard refuses or one that fails lands on Chromium's error page
 * (`chrome-error://chromewebdata/`), while the first document's 200 is still the last
 * response: answered, that was Chromium's own HTML as a charged 200 (issue 24, point 6).
 * So a render whose final URL is not http(s) fails with the error the move got, as the
 * navigation to that address would have: the guard's refusal, the target's network error,
 * or a proxy failure (which then fails over like any other).
 */
import type { Page, Request } from 'playwright-core';
import { appError } from '../../../errors.js';
import { explainNavigationFailure } from './context-network.js';
import type { WarmPage } from './warm-page.js';

export interface MainFrameFailures {
  /** Chromium's error text (`net::ERR_*`) of the main frame's last failed navigation. */
  last(): string | null;
  stop(): void;
}

/** Records the main frame's failed navigations, the one witness when Chromium connects itself. */
export function watchMainFrameFailures(page: Page): MainFrameFailures {
  let last: string | null = null;
  const onFailed = (request: Request) => {
    if (!request.isNavigationRequest()) return;
    try {
      if (request.frame() !== page.mainFrame()) return;
    } catch {
      return; // a service worker's request has no frame
    }
    const text = request.failure()?.errorText;
    // ERR_ABORTED is a navigation another one replaced: not why the page ended where it did.
    if (text && text !== 'net::ERR_ABORTED') last = text;
  };
  page.on('requestfailed', onFailed);
  return { last: () => last, stop: () => page.off('requestfailed', onFailed) };
}

export function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** A main-document host the guard proxy refused (a name that resolved otherwise for it). */
function refusedByGuard(
  warm: Pick<WarmPage, 'network'>,
  mainHosts: ReadonlySet<string>,
): { host: string; reason: 'non-public' | 'unresolved' } | null {
  for (const event of warm.network.events) {
    if (event.kind === 'refused' && event.reason !== 'service-host' && mainHosts.has(event.host))
      return { host: event.host, reason: event.reason };
  }
  return null;
}

/**
 * Why a render that ended on `finalUrl` (not http or https) failed. A refused move is a 502
 * like every failed scrape, not the 400 of a refused target: the caller's URL was allowed.
 * Network errors come back as Chromium's `net::ERR_*`, for the engine to classify.
 */
export function leftTheWeb(
  finalUrl: string,
  warm: Pick<WarmPage, 'policy' | 'network'>,
  failure: string | null,
): Error {
  const policy = warm.policy;
  if (policy?.refusedRedirect) {
    return appError('FETCH_FAILED', `redirect to ${policy.refusedRedirect} not followed`);
  }
  const refused = policy?.refusedMain ?? (policy && refusedByGuard(warm, policy.mainHosts));
  if (refused) {
    return refused.reason === 'unresolved'
      ? appError('FETCH_FAILED', `could not resolve ${refused.host}`)
      : appError('FETCH_FAILED', `the page moved to ${refused.host}, a non-public address`);
  }
  const explained = policy && explainNavigationFailure(warm.network.events, policy.mainHosts);
  if (explained) return explained;
  if (failure?.startsWith('net::')) return new Error(failure);
  return appError('FETCH_FAILED', `the page moved to ${finalUrl.slice(0, 100)}`);
}
