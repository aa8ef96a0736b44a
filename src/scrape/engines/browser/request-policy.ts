/**
 * The ONE decision every request of a page goes through (navigation, redirects handled by
 * Chromium as new requests, sub-resources, iframes, websockets): Chromium's own Google hosts,
 * blocked resource types, the blockers' network filters, then the SSRF check (the only
 * asynchronous step, so it runs last and its answer is cached per host for the request).
 * Several competing route handlers would each pay a Node round trip and could disagree.
 *
 * Routing cannot see everything (redirect hops in out-of-process iframes, some worker
 * requests) and Chromium resolves names itself, so the SSRF check here is the one that
 * gives clear errors for the main document; the guard proxy (src/scrape/net/guard-proxy.ts)
 * is the one no connection can get around.
 */
import { checkUrlAllowed, type GuardOptions, hostOf, type UrlCheck } from '../../net/ssrf-guard.js';
import type { BlockSelection } from '../../types.js';
import { anyBlocker, type BrowserBlockersHook } from './blockers-hook.js';

/**
 * Hosts Chromium calls on its own (updates, sign-in, safe browsing, variations). Blocked
 * for sub-requests always; through a proxy they would leak the proxy's credentials' use.
 */
const CHROMIUM_SERVICE_HOSTS = [
  'update.googleapis.com',
  'clients2.google.com',
  'clients4.google.com',
  'clientservices.googleapis.com',
  'accounts.google.com',
  'safebrowsing.googleapis.com',
  'sb-ssl.google.com',
  'optimizationguide-pa.googleapis.com',
  'content-autofill.googleapis.com',
  'edgedl.me.gvt1.com',
  'redirector.gvt1.com',
  'android.clients.google.com',
];

export function isChromiumServiceHost(host: string): boolean {
  return CHROMIUM_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

export interface RequestFacts {
  url: string;
  /** Playwright resource type. */
  type: string;
  /** The top-level document's navigation (a redirect hop of it included). */
  isMainDocument: boolean;
  /** URL of the frame that made the request ('' when unknown). */
  sourceUrl: string;
  /** A hop of a redirect (Chromium's new request for the Location), not a first request. */
  redirectHop?: boolean;
}

export type Verdict =
  | { action: 'continue' }
  | {
      action: 'abort';
      why: 'service-host' | 'type' | 'blocker' | 'ssrf' | 'scheme' | 'redirect-refused';
    };

export interface RequestPolicyInit {
  allowPrivate: boolean;
  guard?: Pick<GuardOptions, 'lookup' | 'isAllowedAddress'>;
  blockedTypes: ReadonlySet<string>;
  blockers?: BrowserBlockersHook;
  which: BlockSelection;
  /**
   * Asked before the main document follows a redirect hop or the page moves itself to
   * another document (a location change, a meta refresh: ScrapeRun.followRedirect, a
   * crawl's robots.txt), as the fetch engine asks before requesting a redirect.
   */
  followRedirect?: (url: URL) => Promise<boolean>;
}

/** One request's policy; lives on the warm page while that request renders. */
export class RequestPolicy {
  /** Set when the main document (or a redirect of it) was refused by the SSRF check. */
  refusedMain: Extract<UrlCheck, { allowed: false }> | null = null;
  /** Hosts the main document and its redirect hops went to (to read the guard proxy's events). */
  readonly mainHosts = new Set<string>();
  /** The redirect hop of the main document that `followRedirect` refused, or null. */
  refusedRedirect: string | null = null;
  private readonly hostChecks = new Map<string, Promise<UrlCheck>>();
  /** Set once the caller's own navigation has been decided: later main documents are moves. */
  private navigated = false;

  constructor(private readonly init: RequestPolicyInit) {}

  async decide(facts: RequestFacts): Promise<Verdict> {
    let url: URL;
    try {
      url = new URL(facts.url);
    } catch {
      return { action: 'abort', why: 'scheme' };
    }
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
      // data:, blob: and about: never reach the route; anything else (file:, chrome:) must not load.
      return { action: 'abort', why: 'scheme' };
    }
    const host = hostOf(url);
    if (facts.isMainDocument) this.mainHosts.add(host);
    if (!facts.isMainDocument) {
      if (isChromiumServiceHost(host)) return { action: 'abort', why: 'service-host' };
      if (this.init.blockedTypes.has(facts.type)) return { action: 'abort', why: 'type' };
      const { blockers, which } = this.init;
      if (blockers && anyBlocker(which)) {
        const request = { url: facts.url, type: facts.type, sourceUrl: facts.sourceUrl };
        if (blockers.matchesNetworkBlock(request, which)) {
          return { action: 'abort', why: 'blocker' };
        }
      }
    }
    const { followRedirect } = this.init;
    const moved = facts.isMainDocument && !facts.redirectHop && this.navigated;
    if (facts.isMainDocument) this.navigated = true;
    if ((moved || (facts.isMainDocument && facts.redirectHop)) && followRedirect) {
      if (!(await followRedirect(url))) {
        this.refusedRedirect ??= url.href;
        return { action: 'abort', why: 'redirect-refused' };
      }
    }
    if (this.init.allowPrivate) return { action: 'continue' };
    const check = await this.checkHost(host, url);
    if (check.allowed) return { action: 'continue' };
    if (facts.isMainDocument && this.refusedMain === null) this.refusedMain = check;
    return { action: 'abort', why: 'ssrf' };
  }

  private checkHost(host: string, url: URL): Promise<UrlCheck> {
    let check = this.hostChecks.get(host);
    if (!check) {
      check = checkUrlAllowed(url, { allowPrivate: false, ...this.init.guard });
      this.hostChecks.set(host, check);
    }
    return check;
  }
}
