/**
 * Keeps Chromium's HTTP cache on while Playwright routes a page's requests. Playwright turns
 * the cache off on every target session while it intercepts (our route, or the guard
 * proxy's credentials), and Chromium then sends every request as a hard reload does, with
 * `Pragma: no-cache` and `Cache-Control: no-cache`: no person's Chrome loads a page that
 * way. The cache-off flag is per CDP session and any one session's keeps it off, so it is
 * turned back on on Playwright's own sessions (the page's now, and each later frame or
 * worker session right after Playwright turns it off, before that target runs).
 *
 * What the cache on changes: a response Chromium's HTTP cache holds still passes the route
 * (interception comes first), so the request policy sees it. Blink's in-memory cache can
 * answer a repeated resource of the same page without a request: it was vetted once, by the
 * same scrape's policy. Between scrapes `WarmPage.reset()` clears the HTTP cache and evicts
 * the memory cache (the isolation test checks that the next scrape gets nothing cached).
 */
import type { Page } from 'playwright-core';
import { type CdpSession, internalsChanged, serverPageOf } from './playwright-internals.js';

/** Playwright's CRNetworkManager, as far as used here. */
interface NetworkManager {
  _sessions: Map<CdpSession, { session: CdpSession }>;
  _protocolRequestInterceptionEnabled: boolean;
  _updateProtocolRequestInterceptionForSession(
    info: { session: CdpSession },
    initial?: boolean,
  ): Promise<void>;
}

const CACHE_ON = { cacheDisabled: false };

export function keepHttpCacheOn(page: Page): void {
  const manager = serverPageOf(page)?._networkManager as Partial<NetworkManager> | undefined;
  const update = manager?._updateProtocolRequestInterceptionForSession;
  if (!manager || !(manager._sessions instanceof Map) || typeof update !== 'function') {
    throw internalsChanged('renders would send Pragma: no-cache', 'http-cache.ts');
  }
  // Playwright sends its cache-off synchronously here; ours follows it on the same session.
  manager._updateProtocolRequestInterceptionForSession = (info, initial) => {
    const done = update.call(manager, info, initial);
    if (manager._protocolRequestInterceptionEnabled) {
      void info.session._sendMayFail('Network.setCacheDisabled', CACHE_ON);
    }
    return done;
  };
  for (const { session } of manager._sessions.values()) {
    void session._sendMayFail('Network.setCacheDisabled', CACHE_ON);
  }
}
