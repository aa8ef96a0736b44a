/**
 * The plain-HTTP engine (render=false): GET the page like a desktop browser would, follow
 * redirects ourselves so every hop passes the SSRF guard, undo compression, bound the body
 * and decode it to UTF-8. Bounded in time by the plan's deadline and signal.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { setImmediate } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { BINARY_KINDS, contentKindOf } from '../../documents/content-kind.js';
import { type AppError, appError, isAppError } from '../../errors.js';
import { type DecodedBody, decodeBody } from '../net/charset.js';
import type { ProxyHealth } from '../net/proxy-health.js';
import type { Session, SessionStore } from '../net/sessions.js';
import { assertPublicUrl, type GuardOptions, type LookupFn } from '../net/ssrf-guard.js';
import type { PageSnapshot, ProxyEndpoint, ScrapeRun } from '../types.js';
import { chromeNavigationHeaders } from './fetch/browser-headers.js';
import { createDispatchers, type Dispatchers, proxyDispatcher } from './fetch/dispatchers.js';
import { isProxyFailure, ProxyFailure, toAppError } from './fetch/network-errors.js';
import { bodyTooLarge, decompress, readLimited } from './fetch/read-body.js';
import { RedirectCookies } from './fetch/redirect-cookies.js';
import {
  type ChromeIdentity,
  chromeIdentity,
  FALLBACK_CHROME_VERSION,
} from './identity/chrome-identity.js';

export interface FetchEngineOptions {
  /** ALLOW_PRIVATE_NETWORKS: reach loopback/private targets (tests, local use). */
  allowPrivateNetworks: boolean;
  /** MAX_BODY_BYTES: largest body accepted, on the wire and decompressed. */
  maxBodyBytes: number;
  /** Redirects followed before giving up. Default 10. */
  maxRedirects?: number;
  /** Sockets open at once to one origin, per direct or proxy route. Default 32. */
  connectionsPerOrigin?: number;
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
  /** DNS resolver for the SSRF guard. Default: the operating system's. */
  lookup?: LookupFn;
  /** Address policy for the SSRF guard. Default: `isPublicAddress`. For tests. */
  isAllowedAddress?: (ip: string) => boolean;
}

/** A snapshot plus the target's Content-Type (the blockers skip what is not HTML). */
export interface FetchedPage extends PageSnapshot {
  contentType: string | null;
}

export interface FetchEngine {
  fetch(plan: ScrapeRun): Promise<FetchedPage>;
  /** Closes every pooled connection (sessions' own are the session store's). */
  close(): Promise<void>;
}

const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Whether `bytes` are the decoded text's UTF-8 byte for byte: decoded as UTF-8, with no BOM
 * (left out of the text) and no invalid sequence (each one a U+FFFD in the text).
 */
function sentAsUtf8(bytes: Buffer, decoded: DecodedBody): boolean {
  return decoded.charset === 'utf-8' && decoded.source !== 'bom' && isUtf8(bytes);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function createFetchEngine(options: FetchEngineOptions): FetchEngine {
  const limit = options.maxBodyBytes;
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
  const guard: GuardOptions = {
    allowPrivate: options.allowPrivateNetworks,
    ...(options.lookup && { lookup: options.lookup }),
    ...(options.isAllowedAddress && { isAllowedAddress: options.isAllowedAddress }),
  };
  const connections = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  const dispatchers: Dispatchers = createDispatchers(guard, connections);
  // Only scrapes that ask to skip TLS verification use these; built on first use.
  let lenient: Dispatchers | null = null;
  const directFor = (plan: ScrapeRun): Dispatcher => {
    if (!plan.options.skipTlsVerification) return dispatchers.get(null);
    lenient ??= createDispatchers(guard, connections, false);
    return lenient.get(null);
  };

  /**
   * The way out of one attempt and what to do when it is over: direct (pooled), the
   * session's own connection, or a new proxy connection closed with the attempt.
   */
  function routeOf(
    plan: ScrapeRun,
    proxy: ProxyEndpoint | null,
    session: Session | null,
  ): { dispatcher: Dispatcher; done(): void } {
    if (proxy === null) return { dispatcher: directFor(plan), done() {} };
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
    dispatcher: Dispatcher,
    signal: AbortSignal,
  ): Promise<FetchedPage> {
    const { mobile, proxyCountry } = plan.options;
    const identity = identityOf(mobile, proxy?.country ?? proxyCountry);
    const cookies = session ? RedirectCookies.from(session.cookies) : new RedirectCookies();
    const visited = new Set<string>();
    let url = startUrl;
    for (let redirects = 0; ; redirects += 1) {
      visited.add(`${url.href}\n${cookies.header(url)}`);
      // Explicit check for a clear error (and the only one through a proxy); the direct
      // dispatcher checks again at the socket.
      if (!guard.allowPrivate) await assertPublicUrl(url, guard);
      const target = new URL(url);
      target.hash = '';
      const cookie = cookies.header(url);
      const headers = requestHeaders(identity, url, plan);
      const response = await request(target, {
        dispatcher,
        method: 'GET',
        headers: cookie ? { ...headers, cookie } : headers,
        signal,
      }).catch((error: unknown) => {
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
      const declared = Number(headerValue(response.headers, 'content-length'));
      if (Number.isFinite(declared) && declared > limit) {
        response.body.destroy();
        throw bodyTooLarge(limit);
      }
      const raw = await readLimited(response.body, limit);
      const bytes = await decompress(raw, headerValue(response.headers, 'content-encoding'), limit);
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
      const signal = AbortSignal.any([plan.signal, AbortSignal.timeout(remaining)]);
      try {
        return await loadWithFailover(plan, signal);
      } catch (error) {
        if (signal.aborted) throw timedOut();
        throw toAppError(error, new URL(plan.options.url).hostname);
      }
    },
    close: async () => {
      await Promise.all([dispatchers.close(), lenient?.close()]);
    },
  };
}

/**
 * The identity's navigation headers for this hop, in Chrome's order: the caller's languages
 * (else the proxy country's) as Accept-Language, and the caller's own headers, which take
 * the place of a header of the same name (compared without case) or come last.
 */
function requestHeaders(
  identity: ChromeIdentity,
  url: URL,
  plan: ScrapeRun,
): Record<string, string> {
  const { languages, headers } = plan.options;
  const out = chromeNavigationHeaders(
    identity,
    url,
    languages.length > 0 ? languages : identity.languages,
  );
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
