/**
 * The plain-HTTP engine (render=false): GET the page like a desktop browser would, follow
 * redirects ourselves so every hop passes the SSRF guard, undo compression, bound the body
 * and decode it to UTF-8, all through the service's one HTTP client (scrape/net/
 * http-client.ts). Bounded in time by the plan's deadline and signal.
 */
import { isUtf8 } from 'node:buffer';
import { setImmediate } from 'node:timers/promises';
import { BINARY_KINDS, contentKindOf } from '../../documents/content-kind.js';
import { type AppError, appError, isAppError } from '../../errors.js';
import { type DecodedBody, decodeBody } from '../net/charset.js';
import type { HttpClient, HttpDispatcher } from '../net/http-client.js';
import { headerValue, REDIRECT_STATUSES } from '../net/http-response.js';
import type { ProxyHealth } from '../net/proxy-health.js';
import type { Session, SessionStore } from '../net/sessions.js';
import type { PageSnapshot, ProxyEndpoint, ScrapeRun } from '../types.js';
import { chromeNavigationHeaders, isTrustworthy } from './fetch/browser-headers.js';
import { proxyDispatcher } from './fetch/dispatchers.js';
import { isProxyFailure, ProxyFailure, toAppError } from './fetch/network-errors.js';
import { RedirectCookies } from './fetch/redirect-cookies.js';
import {
  type ChromeIdentity,
  chromeIdentity,
  FALLBACK_CHROME_VERSION,
} from './identity/chrome-identity.js';

export interface FetchEngineOptions {
  /**
   * The service's HTTP client: the address guard, the direct routes (sockets per origin),
   * MAX_BODY_BYTES. The engine does not close it: its builder does.
   */
  http: HttpClient;
  /** Redirects followed before giving up. Default 10. */
  maxRedirects?: number;
  /**
   * The Chrome version whose identity (user agent, client hints, header order) fetches
   * take: the renderer's, so both engines are the same browser. Default
   * `FALLBACK_CHROME_VERSION`.
   */
  chromeVersion?: string;
  /** Where connection failures through a proxy are counted (and proxies benched). */
  health?: ProxyHealth;
  /** Sticky sessions: their connection out and cookies. */
  sessions?: SessionStore;
}

/** A snapshot plus the target's Content-Type (the blockers skip what is not HTML). */
export interface FetchedPage extends PageSnapshot {
  contentType: string | null;
}

export interface FetchEngine {
  fetch(plan: ScrapeRun): Promise<FetchedPage>;
  /** Nothing of its own to close: pooled connections are the client's, sessions' their store's. */
  close(): Promise<void>;
}

const DEFAULT_MAX_REDIRECTS = 10;

/**
 * Whether `bytes` are the decoded text's UTF-8 byte for byte: decoded as UTF-8, with no BOM
 * (left out of the text) and no invalid sequence (each one a U+FFFD in the text).
 */
function sentAsUtf8(bytes: Buffer, decoded: DecodedBody): boolean {
  return decoded.charset === 'utf-8' && decoded.source !== 'bom' && isUtf8(bytes);
}

export function createFetchEngine(options: FetchEngineOptions): FetchEngine {
  const { http } = options;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const chromeVersion = options.chromeVersion ?? FALLBACK_CHROME_VERSION;
  // Four identities at most per country (desktop or phone): built once each.
  const identities = new Map<string, ChromeIdentity>();
  const identityOf = (mobile: boolean, country: string | null): ChromeIdentity => {
    const key = `${mobile}:${country}`;
    let identity = identities.get(key);
    if (!identity) {
      identity = chromeIdentity({ chromeVersion, mobile, country });
      identities.set(key, identity);
    }
    return identity;
  };

  /**
   * The way out of one attempt and what to do when it is over: direct (pooled), the
   * session's own connection, or a new proxy connection closed with the attempt.
   */
  function routeOf(
    plan: ScrapeRun,
    proxy: ProxyEndpoint | null,
    session: Session | null,
  ): { dispatcher: HttpDispatcher; done(): void } {
    if (proxy === null) {
      return { dispatcher: http.direct(!plan.options.skipTlsVerification), done() {} };
    }
    const verifyTls = !plan.options.skipTlsVerification;
    if (session) {
      // One kept connection per certificate policy (a connection's TLS settings are fixed).
      const key = verifyTls ? 'dispatcher' : 'lenientDispatcher';
      session[key] ??= proxyDispatcher(proxy.url, verifyTls);
      return { dispatcher: session[key], done() {} };
    }
    const own = proxyDispatcher(proxy.url, verifyTls);
    return { dispatcher: own, done: () => void own.destroy().catch(() => {}) };
  }

  function sessionOf(plan: ScrapeRun): Session | null {
    const { sessionId, proxyType, proxyCountry } = plan.options;
    if (!sessionId || !options.sessions) return null;
    return options.sessions.get(plan.isolationKey, sessionId, proxyType, proxyCountry);
  }

  async function load(
    plan: ScrapeRun,
    startUrl: URL,
    proxy: ProxyEndpoint | null,
    signal: AbortSignal,
  ): Promise<FetchedPage> {
    const session = sessionOf(plan);
    const route = routeOf(plan, proxy, session);
    try {
      return await follow(plan, startUrl, proxy, session, route.dispatcher, signal);
    } finally {
      route.done();
    }
  }

  async function follow(
    plan: ScrapeRun,
    startUrl: URL,
    proxy: ProxyEndpoint | null,
    session: Session | null,
    dispatcher: HttpDispatcher,
    signal: AbortSignal,
  ): Promise<FetchedPage> {
    const { mobile, proxyCountry } = plan.options;
    const identity = identityOf(mobile, proxy?.country ?? proxyCountry);
    const cookies = session ? RedirectCookies.from(session.cookies) : new RedirectCookies();
    const visited = new Set<string>();
    let url = startUrl;
    for (let redirects = 0; ; redirects += 1) {
      visited.add(`${url.href}\n${cookies.header(url)}`);
      const cookie = cookies.header(url);
      const headers = requestHeaders(identity, url, plan);
      const response = await http
        .send(url, { dispatcher, headers: cookie ? { ...headers, cookie } : headers, signal })
        .catch((error: unknown) => {
          // The address check's own error (URL_NOT_ALLOWED, an unresolved name) as it is.
          if (isAppError(error)) throw error;
          throw Object.assign(toAppError(error, url.hostname), { cause: error });
        });
      cookies.store(url, response.headers['set-cookie']);
      if (session) {
        session.cookies = cookies.list();
        options.sessions?.touch(session);
      }
      const location = headerValue(response.headers, 'location');
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        // undici marks the socket free for reuse a tick after the body ends; asking for
        // the next hop sooner would open a second connection.
        await setImmediate();
        url = nextHop(url, location, redirects, maxRedirects, visited, cookies);
        if (plan.followRedirect && !(await plan.followRedirect(url))) {
          throw appError('FETCH_FAILED', `redirect to ${url.href} not followed`);
        }
        continue;
      }
      const bytes = await http.readBody(response);
      const contentType = headerValue(response.headers, 'content-type') ?? null;
      const retryAfter = headerValue(response.headers, 'retry-after');
      // a PDF, a DOCX or an image is kept as bytes: decoded as text it is only noise
      if (BINARY_KINDS.has(contentKindOf(contentType, bytes))) {
        return {
          finalUrl: url.href,
          status: response.statusCode,
          html: '',
          body: bytes,
          contentType,
          via: proxy,
          ...(retryAfter ? { retryAfter } : {}),
        };
      }
      const decoded = decodeBody(bytes, contentType);
      return {
        finalUrl: url.href,
        status: response.statusCode,
        html: decoded.text,
        ...(sentAsUtf8(bytes, decoded) ? { htmlBytes: bytes } : {}),
        contentType,
        via: proxy,
        ...(retryAfter ? { retryAfter } : {}),
      };
    }
  }

  async function loadWithFailover(plan: ScrapeRun, signal: AbortSignal): Promise<FetchedPage> {
    const url = new URL(plan.options.url);
    const [first, second] = plan.proxies;
    if (!first) return load(plan, url, null, signal);
    const attempt = async (proxy: ProxyEndpoint): Promise<FetchedPage> => {
      try {
        return await load(plan, url, proxy, signal);
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        if (signal.aborted || !isProxyFailure(cause, proxy.url)) throw error;
        options.health?.record(proxy, 'failed');
        throw new ProxyFailure(proxy.url, cause);
      }
    };
    try {
      return await attempt(first);
    } catch (error) {
      // A session keeps its proxy: it does not fail over to another exit.
      if (!second || !(error instanceof ProxyFailure) || sessionOf(plan)) throw error;
      return attempt(second);
    }
  }

  return {
    async fetch(plan) {
      const timedOut = (): AppError =>
        isAppError(plan.signal.reason)
          ? plan.signal.reason
          : appError('TIMED_OUT', plan.options.timeoutMs);
      const remaining = plan.deadline - Date.now();
      if (remaining <= 0 || plan.signal.aborted) throw timedOut();
      // One controller ended by the plan's signal or our own timer, not AbortSignal.any()
      // (it holds its sources weakly and costs a registry entry per fetch) nor
      // AbortSignal.timeout() (on Node 20 collectable before it fires, a flaky test showed).
      const deadline = new AbortController();
      const abort = () => deadline.abort();
      const timer = setTimeout(abort, remaining);
      plan.signal.addEventListener('abort', abort, { once: true });
      const { signal } = deadline;
      try {
        return await loadWithFailover(plan, signal);
      } catch (error) {
        if (signal.aborted) throw timedOut();
        throw toAppError(error, new URL(plan.options.url).hostname);
      } finally {
        clearTimeout(timer);
        plan.signal.removeEventListener('abort', abort);
      }
    },
    close: async () => {},
  };
}

/** Header sets kept per identity; languages vary per caller, so it starts over past this. */
const MAX_CACHED_HEADER_SETS = 256;
const headerSets = new WeakMap<ChromeIdentity, Map<string, Readonly<Record<string, string>>>>();

/**
 * The identity's navigation headers for this hop, in Chrome's order: the caller's languages
 * (else the proxy country's) as Accept-Language, and the caller's own headers, which take
 * the place of a header of the same name (compared without case) or come last. The set for
 * an identity, an origin's trust and the languages is built once: every fetch sends one.
 */
function requestHeaders(
  identity: ChromeIdentity,
  url: URL,
  plan: ScrapeRun,
): Record<string, string> {
  const { languages, headers } = plan.options;
  const asked = languages.length > 0 ? languages : identity.languages;
  let sets = headerSets.get(identity);
  if (!sets) {
    sets = new Map();
    headerSets.set(identity, sets);
  }
  const key = `${isTrustworthy(url)}\n${asked.join('\n')}`;
  let base = sets.get(key);
  if (!base) {
    if (sets.size >= MAX_CACHED_HEADER_SETS) sets.clear();
    base = Object.freeze(chromeNavigationHeaders(identity, url, asked));
    sets.set(key, base);
  }
  // A copy: undici's proxy route adds its own headers (host) to the object it is given.
  const out = { ...base };
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

export { acceptLanguage } from './identity/chrome-identity.js';

function nextHop(
  from: URL,
  location: string,
  redirects: number,
  maxRedirects: number,
  visited: Set<string>,
  cookies: RedirectCookies,
): URL {
  if (redirects >= maxRedirects) {
    throw appError('FETCH_FAILED', `too many redirects (more than ${maxRedirects})`);
  }
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw appError('FETCH_FAILED', `invalid redirect location ${location.slice(0, 200)}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw appError('FETCH_FAILED', `redirect to unsupported URL scheme ${next.protocol}`);
  }
  // A fragment-less Location keeps the fragment of the URL it came from (RFC 9110 10.2.2).
  if (!next.hash && from.hash) next.hash = from.hash;
  if (visited.has(`${next.href}\n${cookies.header(next)}`)) {
    throw appError('FETCH_FAILED', `redirect loop at ${next.href}`);
  }
  return next;
}
