/**
 * A context with one tab, kept warm and reused for several requests of the same proxy.
 * Creating a context + tab costs a renderer start (~0.4 CPU-s); reusing the tab halves the
 * CPU per request. Reuse is only safe because `reset()` removes everything a page can leave
 * behind (see the isolation test): cookies, every storage type of every origin the page
 * touched, the HTTP cache, service workers, permissions, history, window.name, extra tabs,
 * the caller's extra headers and languages; the last document is emptied where it is, its
 * scripts switched off until the next render (or, when it has workers, left for
 * about:blank). What a context is created with (phone or desktop, certificate checks)
 * cannot be reset: it is part of the key (page-profile.ts), as is the consent rejector's init
 * script, switched off between renders. Anything else that cannot be undone (other init
 * scripts, a failed or timed-out request) retires the page instead.
 */
import { randomUUID } from 'node:crypto';
import type {
  Browser,
  BrowserContext,
  CDPSession,
  Page,
  Request,
  Route,
  WebSocketRoute,
} from 'playwright-core';
import type { ChromeIdentity, UserAgentMetadata } from '../identity/chrome-identity.js';
import { pagePatchesScript } from '../identity/page-patches.js';
import type { ConsentHandle } from './blockers-hook.js';
import type { ContextNetwork } from './context-network.js';
import { keepHttpCacheOn } from './http-cache.js';
import { PageBytes } from './page-bytes.js';
import { type ContextProfile, contextOptionsOf, identityOf } from './page-profile.js';
import { type NetworkSession, PendingRequests } from './page-settle.js';
import { isEmptyIdentity, type RequestIdentity } from './request-identity.js';
import type { RequestPolicy } from './request-policy.js';
import {
  observerScript,
  ownScriptNameOf,
  PROBE,
  SETTLE_WORLD,
  type SettleProbe,
  timersScript,
} from './settle-scripts.js';
import { presentInEveryTarget, type SharedWorkerIdentities } from './target-identity.js';

/** The languages Chromium is launched with (`--accept-lang` in chromium-process.ts). */
const BROWSER_LANGUAGES = 'en-US,en';
/** A person's machine, not this server's two cores and 16 GB (Chrome reports at most 8). */
const HARDWARE_CONCURRENCY = 8;
const DEVICE_MEMORY = 8;

/**
 * What `page.content()` returns, computed in the page; null when it is longer than
 * `maxChars` (a script can build a document far larger than what it downloaded).
 */
const readHtml = (maxChars: number) => `(() => {
  const html = (document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '') +
    (document.documentElement ? document.documentElement.outerHTML : '');
  return html.length > ${maxChars} ? null : html;
})()`;

/** The fields of CDP's Fetch.requestPaused that the redirect guard reads. */
interface PausedRequest {
  requestId: string;
  redirectedRequestId?: string;
  request: { url: string };
  resourceType: string;
  frameId: string;
}

/** CDP's Emulation.setUserAgentOverride parameters (playwright-core does not export its Protocol types). */
interface UserAgentOverride {
  userAgent: string;
  acceptLanguage?: string;
  platform: string;
  userAgentMetadata: UserAgentMetadata;
}

export interface WarmPageSettings {
  serviceWorkers: 'block' | 'allow';
  /** Vet redirect hops (needed unless private networks are allowed; costs a round trip per request). */
  guardRedirects: boolean;
  operationTimeoutMs: number;
}

/** The expression itself threw: asking again would not help. */
class EvaluationFailed extends Error {}

export class WarmPage {
  /** Renders served so far. */
  uses = 0;
  /** Requests routed so far (each holds Playwright objects until the page closes). */
  requests = 0;
  /** Set when this page must not be reused (WebSockets routed, error, crash). */
  tainted = false;
  /** The consent rejector installed on this page, for good (page-blockers.ts). */
  consent: ConsentHandle | null = null;
  /**
   * The `sourceURL` under which our own page-world scripts run (the consent rejector's):
   * the settle's timer count leaves out timers they set (settle-scripts.ts).
   */
  ownScriptName: string | undefined;
  /** Why the page died under a request (crash, browser exit), or null. */
  failure: string | null = null;
  /** The policy of the request being rendered; null while idle (then everything is aborted). */
  policy: RequestPolicy | null = null;
  /** Origins whose documents or requests ran here since the last reset. */
  private readonly origins = new Set<string>();
  private mainFrameId = '';
  /** Set while the caller's headers or languages are on the page. */
  private identitySet = false;
  /** The languages presented now: the caller's for this scrape, or the identity's. */
  private languages: string;
  private webSocketsRouted = false;
  /** Set once redirect hops are paused for the policy (guardRedirects). */
  private redirectsVetted = false;
  /** Set between an in-place reset and the next render (`emptyInPlace`, `resume`). */
  private scriptsOff = false;
  /**
   * Set for a sticky session's page (its pool key names the session): its connections to
   * the upstream proxy outlive the reset, so the session's next render leaves through the
   * same connection. Everything else is still wiped.
   */
  keepConnections = false;
  private readonly failureListeners = new Set<(reason: string) => void>();
  /** Ends the context's registration for shared workers (target-identity.ts). */
  private stopSharedWorkers: () => void = () => {};

  private constructor(
    readonly key: string,
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly cdp: CDPSession,
    /** The context's way out (its guard ticket); released when the context closes. */
    readonly network: ContextNetwork,
    /** The Chrome this context is (user agent, client hints, languages, time zone). */
    readonly identity: ChromeIdentity,
    /** Decoded bytes the page received (MAX_BODY_BYTES is enforced on it per render). */
    private readonly bytes: PageBytes,
  ) {
    this.languages = identity.languages.join(',');
  }

  static async create(
    { browser, sharedWorkers }: { browser: Browser; sharedWorkers: SharedWorkerIdentities },
    key: string,
    network: ContextNetwork,
    settings: WarmPageSettings,
    profile: ContextProfile,
  ): Promise<WarmPage> {
    const identity = identityOf(profile, browser.version());
    const context = await browser
      .newContext({
        ...contextOptionsOf(profile, identity),
        proxy: network.proxy,
        acceptDownloads: false,
        serviceWorkers: settings.serviceWorkers,
      })
      .catch((error: unknown) => {
        network.release();
        throw error;
      });
    let stopSharedWorkers = () => {};
    try {
      const patches = pagePatchesScript({
        webglVendor: identity.webgl.vendor,
        webglRenderer: identity.webgl.renderer,
        deviceMemory: DEVICE_MEMORY,
        platform: identity.platform,
        userAgent: identity.userAgent,
        desktopScreen: !profile.mobile,
      });
      // Before the first page, so that it runs in every document of the context.
      await context.addInitScript({ content: patches });
      // Unguessable, so that no page can ask the settle's questions or answer them.
      const secret = `pg-${randomUUID()}`;
      await context.addInitScript({ content: timersScript(secret) });
      const page = await context.newPage();
      keepHttpCacheOn(page);
      const bytes = PageBytes.watch(page);
      const cdp = await context.newCDPSession(page);
      // Scripts for a named world are only added to new documents with the domain on.
      await cdp.send('Page.enable');
      await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
        source: observerScript(secret),
        worldName: SETTLE_WORLD,
      });
      await PendingRequests.enableNetwork(cdp as unknown as NetworkSession);
      const warm = new WarmPage(key, context, page, cdp, network, identity, bytes);
      warm.ownScriptName = ownScriptNameOf(secret);
      const targetIdentity = () => ({
        userAgentOverride: warm.userAgentOverride(),
        locale: identity.locale,
        hardwareConcurrency: HARDWARE_CONCURRENCY,
        workerScript: patches,
      });
      presentInEveryTarget(page, targetIdentity);
      stopSharedWorkers = sharedWorkers.add(context, targetIdentity);
      warm.stopSharedWorkers = stopSharedWorkers;
      await warm.wire(settings);
      await warm.presentIdentity(null);
      await cdp.send('Emulation.setLocaleOverride', { locale: identity.locale });
      await cdp.send('Emulation.setHardwareConcurrencyOverride', {
        hardwareConcurrency: HARDWARE_CONCURRENCY,
      });
      return warm;
    } catch (error) {
      stopSharedWorkers();
      await context.close().catch(() => {});
      network.release();
      throw error;
    }
  }

  private async wire(settings: WarmPageSettings): Promise<void> {
    const { context, page } = this;
    context.setDefaultTimeout(settings.operationTimeoutMs);
    // Nothing may wait on a human: dialogs are dismissed, popups closed at once.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));
    context.on('page', (other) => {
      if (other !== page) void other.close().catch(() => {});
    });
    page.on('crash', () => this.fail('the page crashed'));
    page.on('framenavigated', (frame) => this.noteOrigin(frame.url()));
    // A new document has new worlds: their contexts are looked up afresh, rather than found
    // gone by a failed evaluation first (a round trip per world per render).
    this.cdp.on('Page.frameNavigated', ({ frame }) => {
      if (frame.parentId === undefined) this.worlds.clear();
    });
    await context.route('**/*', (route, request) => this.onRequest(route, request));
    if (settings.guardRedirects) await this.guardRedirects('every request');
  }

  /**
   * Makes the page pause redirect hops for its policy from now on (a crawl's robots.txt
   * asks before each hop), when it was created without (private networks allowed).
   */
  async vetRedirects(): Promise<void> {
    // Without the address guard only documents' hops need asking: main documents are
    // documents, and pausing sub-resources too would cost each a round trip for nothing.
    if (!this.redirectsVetted) await this.guardRedirects('documents');
  }

  /**
   * Routes the page's WebSockets through the request policy, for a scrape whose policy
   * refuses them by type (block_resources xhr or fetch). Only then: Playwright's WebSocket
   * route replaces the page's WebSocket with its own class and adds `__pw*` globals a
   * site can see, and its init script stays, so the page is retired after this scrape.
   * Other scrapes' WebSockets are vetted by the guard proxy like every connection.
   */
  async vetWebSockets(): Promise<void> {
    this.tainted = true;
    if (this.webSocketsRouted) return;
    this.webSocketsRouted = true;
    await this.page.routeWebSocket(/.*/, (ws) => this.onWebSocket(ws));
  }

  /**
   * Playwright's route never sees redirect hops (it continues them itself), so a second
   * Fetch interception on our own CDP session pauses requests and vets the redirected ones
   * with the same policy. Chromium chains both interceptors.
   */
  private async guardRedirects(which: 'every request' | 'documents'): Promise<void> {
    this.redirectsVetted = true;
    const { cdp } = this;
    await this.frameId();
    cdp.on('Fetch.requestPaused', (event) => void this.onPaused(event));
    const pattern = { urlPattern: '*', requestStage: 'Request' as const };
    await cdp.send('Fetch.enable', {
      patterns: [
        which === 'documents' ? { ...pattern, resourceType: 'Document' as const } : pattern,
      ],
    });
  }

  private async onPaused(event: PausedRequest): Promise<void> {
    const { cdp } = this;
    const requestId = event.requestId;
    try {
      if (event.redirectedRequestId === undefined || !this.policy) {
        return void (await cdp.send('Fetch.continueRequest', { requestId }));
      }
      this.noteOrigin(event.request.url);
      const verdict = await this.policy.decide({
        url: event.request.url,
        type: (event.resourceType ?? 'other').toLowerCase(),
        isMainDocument: event.resourceType === 'Document' && event.frameId === this.mainFrameId,
        sourceUrl: '',
        redirectHop: true,
      });
      if (verdict.action === 'abort') {
        return void (await cdp.send('Fetch.failRequest', {
          requestId,
          errorReason: 'BlockedByClient',
        }));
      }
      await cdp.send('Fetch.continueRequest', { requestId });
    } catch {
      // The request went away (navigation, close) while we decided.
    }
  }

  /** The tab's main frame id: the same for the tab's life, whatever it navigates to. */
  private async frameId(): Promise<string> {
    if (!this.mainFrameId) {
      this.mainFrameId = (await this.cdp.send('Page.getFrameTree')).frameTree.frame.id;
    }
    return this.mainFrameId;
  }

  private noteOrigin(url: string): void {
    if (url.startsWith('http:') || url.startsWith('https:')) this.origins.add(new URL(url).origin);
  }

  private async onRequest(route: Route, request: Request): Promise<void> {
    this.requests += 1;
    const url = request.url();
    this.noteOrigin(url);
    const policy = this.policy;
    try {
      if (!policy) return await route.abort('blockedbyclient');
      const verdict = await policy.decide({
        url,
        type: request.resourceType(),
        isMainDocument: isMainDocument(request, this.page),
        sourceUrl: this.page.url(),
      });
      if (verdict.action === 'abort') return await route.abort('blockedbyclient');
      await route.continue();
    } catch {
      // The page navigated away or closed while we decided: nothing left to route.
    }
  }

  private async onWebSocket(ws: WebSocketRoute): Promise<void> {
    const policy = this.policy;
    const verdict = policy
      ? await policy.decide({
          url: ws.url(),
          type: 'websocket',
          isMainDocument: false,
          sourceUrl: '',
        })
      : ({ action: 'abort' } as const);
    if (verdict.action === 'abort')
      return void ws.close({ code: 1008, reason: 'blocked' }).catch(() => {});
    // connectToServer opens the real socket from inside the page, through the context's proxy.
    ws.connectToServer();
  }

  /**
   * Until `unlimitBytes()`, once the page received more than `maxBytes` decoded bytes (or
   * the guard proxy saw twice that on the wire), its loads are stopped at once and its
   * connections through the guard cut, so that Chromium downloads and decodes nothing
   * more; then `onExceeded` runs and the page is retired after the render.
   */
  limitBytes(maxBytes: number, onExceeded: () => void): void {
    const stop = () => {
      this.unlimitBytes();
      this.tainted = true;
      void this.cdp.send('Page.stopLoading').catch(() => {});
      this.network.recycle();
      onExceeded();
    };
    this.bytes.arm(maxBytes, stop);
    this.network.onTooLarge(stop);
  }

  unlimitBytes(): void {
    this.bytes.disarm();
    this.network.onTooLarge(null);
  }

  onFailure(listener: (reason: string) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  fail(reason: string): void {
    if (this.failure !== null) return;
    this.failure = reason;
    this.tainted = true;
    for (const listener of this.failureListeners) listener(reason);
  }

  /**
   * The context's Chrome on this page: user agent, navigator.platform, client hints (the
   * brands of Google Chrome, which Playwright's context user agent lacks) and languages,
   * the caller's (comma-separated tags) or else the identity's own.
   */
  async presentIdentity(languages: string | null): Promise<void> {
    this.languages = languages ?? this.identity.languages.join(',');
    await this.cdp.send('Emulation.setUserAgentOverride', this.userAgentOverride());
  }

  /** The page's user-agent override, also given to its workers and out-of-process frames. */
  userAgentOverride(): UserAgentOverride {
    const { identity, languages } = this;
    return {
      userAgent: identity.userAgent,
      // The browser's own (CHROMIUM_ARGS' --accept-lang) needs no override, and keeps
      // Accept-Language last as Chrome sends it; an override moves it ahead of Accept.
      ...(languages === BROWSER_LANGUAGES ? {} : { acceptLanguage: languages }),
      platform: identity.platform,
      userAgentMetadata: identity.metadata,
    };
  }

  /** Puts the caller's headers and languages on the page until the next reset. */
  async applyIdentity(identity: RequestIdentity): Promise<void> {
    if (isEmptyIdentity(identity)) return;
    this.identitySet = true;
    if (Object.keys(identity.headers).length > 0) {
      await this.page.setExtraHTTPHeaders(identity.headers);
    }
    // Accept-Language and navigator.language(s); the user agent and hints stay.
    if (identity.acceptLanguage !== null) await this.presentIdentity(identity.acceptLanguage);
  }

  /**
   * Wipes everything the last request could have left; throws if the page is not clean.
   * Says whether the document was emptied in place or the page went to about:blank.
   */
  async reset(): Promise<'in place' | 'navigated'> {
    this.policy = null;
    this.unlimitBytes();
    this.consent?.end?.();
    const { page, context, cdp } = this;
    if (this.identitySet) {
      await page.setExtraHTTPHeaders({});
      await this.presentIdentity(null);
      this.identitySet = false;
    }
    for (const other of context.pages()) if (other !== page) await other.close();
    const inPlace = await this.emptyInPlace();
    if (!inPlace) {
      await page.goto('about:blank');
      // window.name survives same-site navigations: a classic cross-request channel.
      await page.evaluate(() => {
        window.name = '';
      });
    }
    const origins = [...this.origins];
    this.origins.clear();
    await Promise.all(
      origins.map((origin) =>
        cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }),
      ),
    );
    await Promise.all(origins.map((origin) => clearSessionStorage(cdp, origin)));
    // With the cache on (http-cache.ts): turning it off for a moment evicts Blink's
    // in-memory cache, and clearing empties the HTTP cache.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.send('Network.clearBrowserCache');
    await context.clearCookies();
    await context.clearPermissions();
    await cdp.send('Page.resetNavigationHistory');
    // The next scrape gets its own connections to the upstream proxy (rotation); where
    // Chromium holds them itself the page is retired instead. A session's page keeps them.
    if (!this.keepConnections && !this.network.recycle()) this.tainted = true;
    return inPlace ? 'in place' : 'navigated';
  }

  /**
   * Ends the last document's activity without navigating, or returns false when that is not
   * enough and the page must go to about:blank. A navigation to about:blank costs a whole
   * page load in Chromium (about 45 ms of CPU, as much as a small page's own: BENCHMARKS.md,
   * issue 16), so the common case empties the document where it is instead: loads stopped
   * (`window.stop()` aborts its fetches), timers cleared, the document replaced by an empty
   * one (`document.open()` drops its frames and its window's and document's listeners),
   * `window.name` emptied, then the page's scripts switched off, so whatever callback was
   * still due is dropped rather than run after the storage is wiped. `resume()` switches
   * them on for the next render. Workers outlive `document.open()` and could write storage
   * after the wipe: a page that has any goes to about:blank, which ends them.
   */
  private async emptyInPlace(): Promise<boolean> {
    if (this.page.workers().length > 0 || (await this.hasOtherWorkers())) return false;
    const emptied = await this.page
      .evaluate(() => {
        window.stop();
        const last = window.setTimeout(() => {}, 0);
        for (let id = 0; id <= last; id++) {
          window.clearTimeout(id);
          window.clearInterval(id);
        }
        document.open(); // throws in XML documents: those take the navigation
        document.close();
        window.name = '';
        return true;
      })
      .catch(() => false);
    if (!emptied) return false;
    await this.cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    this.scriptsOff = true;
    return true;
  }

  /** Shared or service workers of this context (they outlive the page's document). */
  private async hasOtherWorkers(): Promise<boolean> {
    const { targetInfos } = await this.cdp.send('Target.getTargets');
    const contextId = await this.contextId();
    return targetInfos.some(
      (t) =>
        t.browserContextId === contextId &&
        (t.type === 'shared_worker' || t.type === 'service_worker'),
    );
  }

  private browserContextId: string | undefined;
  private async contextId(): Promise<string | undefined> {
    this.browserContextId ??= (
      await this.cdp.send('Target.getTargetInfo')
    ).targetInfo.browserContextId;
    return this.browserContextId;
  }

  /**
   * The page's HTML as `page.content()` gives it (doctype and the root element's outerHTML),
   * read in an isolated world of our own, where the page's scripts cannot redefine what is
   * read. `page.content()` first loads Playwright's injected script into each new document
   * (about 30 ms and as much CPU per page on a small page: BENCHMARKS.md, issue 16); a world
   * with nothing in it is created in about a millisecond. Falls back to `page.content()`
   * when the document went away while we read (Playwright retries across navigations).
   * Null when the HTML is longer than `maxChars`.
   */
  async html(maxChars: number): Promise<string | null> {
    try {
      const value = await this.inOwnWorld(readHtml(maxChars));
      if (typeof value !== 'string' && value !== null) throw new Error('unread');
      return value;
    } catch {
      const html = await this.page.content();
      return html.length > maxChars ? null : html;
    }
  }

  /**
   * `fn(arg)` run in the main frame's document as html() reads it: in a world of our own, so
   * neither Playwright's script is loaded into the document nor the page's globals are used.
   * `fn` must be self-contained (it is sent as its source); its value comes back as JSON.
   * Falls back to `page.evaluate` when the document went away while we ran.
   */
  async evaluateIsolated<A, R>(fn: (arg: A) => R, arg: A): Promise<R> {
    try {
      return (await this.inOwnWorld(`(${fn.toString()})(${JSON.stringify(arg)})`)) as R;
    } catch {
      return await this.page.evaluate(fn as (arg: unknown) => R, arg);
    }
  }

  /** Our isolated worlds' contexts in the main frame's current document, by world name. */
  private readonly worlds = new Map<string, number>();

  /**
   * html() and the blockers' calls run in the settle's world: it is there in every document
   * (its script makes it), and one world is one context to look up per document, not two.
   * They define no globals, so the settle's probe is left as it is.
   */
  private async inOwnWorld(expression: string): Promise<unknown> {
    return await this.inWorld(SETTLE_WORLD, expression);
  }

  /**
   * `expression` evaluated in our isolated world `name` of the main frame's document. The
   * world's context is kept until it fails (a new document has new worlds: then it is looked
   * up once more), so a render's many calls cost one round trip each. Throws when the
   * expression threw or the document cannot be asked.
   */
  private async inWorld(name: string, expression: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        let contextId = this.worlds.get(name);
        if (contextId === undefined) {
          const frameId = await this.frameId();
          const world = await this.cdp.send('Page.createIsolatedWorld', {
            frameId,
            worldName: name,
          });
          contextId = world.executionContextId;
          this.worlds.set(name, contextId);
        }
        const read = await this.cdp.send('Runtime.evaluate', {
          contextId,
          expression,
          returnByValue: true,
        });
        if (read.exceptionDetails) throw new EvaluationFailed();
        return read.result.value;
      } catch (error) {
        this.worlds.delete(name);
        if (error instanceof EvaluationFailed || attempt > 0) throw error;
      }
    }
  }

  /** The page's requests in flight for a settle, on the session its probes use. */
  watchRequests(): PendingRequests {
    return PendingRequests.watch(this.cdp as unknown as NetworkSession);
  }

  /**
   * The settle's report from its isolated world in the main frame's current document
   * (settle-scripts.ts), or null when the document cannot be asked.
   */
  async probeSettle(): Promise<SettleProbe | null> {
    try {
      return ((await this.inWorld(SETTLE_WORLD, PROBE)) as SettleProbe | null) ?? null;
    } catch {
      return null;
    }
  }

  /** Switches the page's scripts back on after an in-place reset; call before navigating. */
  async resume(): Promise<void> {
    if (!this.scriptsOff) return;
    await this.cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
    this.scriptsOff = false;
  }

  async close(): Promise<void> {
    this.policy = null;
    this.stopSharedWorkers();
    await this.context.close().catch(() => {});
    this.network.release();
  }
}

/** sessionStorage belongs to the tab, which we keep: clear it per origin through DOMStorage. */
async function clearSessionStorage(cdp: CDPSession, origin: string): Promise<void> {
  await cdp
    .send('DOMStorage.clear', { storageId: { securityOrigin: origin, isLocalStorage: false } })
    .catch(() => {});
}

function isMainDocument(request: Request, page: Page): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false; // service-worker requests have no frame
  }
}
