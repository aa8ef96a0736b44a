/**
 * The plain-HTTP engine (render=false): GET the page like a desktop browser would, follow
 * redirects ourselves so every hop passes the SSRF guard, undo compression, bound the body
 * and decode it to UTF-8. Bounded in time by the plan's deadline and signal.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setImmediate } from 'node:timers/promises';
import { request } from 'undici';
import { type AppError, appError, isAppError } from '../../errors.js';
import { decodeBody } from '../net/charset.js';
import { assertPublicUrl, type GuardOptions, type LookupFn } from '../net/ssrf-guard.js';
import type { PageSnapshot, ScrapeRun } from '../types.js';
import {
  DEFAULT_USER_AGENT,
  MOBILE_USER_AGENT,
  navigationHeaders,
} from './fetch/browser-headers.js';
import { createDispatchers, type Dispatchers } from './fetch/dispatchers.js';
import { isProxyFailure, ProxyFailure, toAppError } from './fetch/network-errors.js';
import { bodyTooLarge, decompress, readLimited } from './fetch/read-body.js';
import { RedirectCookies } from './fetch/redirect-cookies.js';

export interface FetchEngineOptions {
  /** ALLOW_PRIVATE_NETWORKS: reach loopback/private targets (tests, local use). */
  allowPrivateNetworks: boolean;
  /** MAX_BODY_BYTES: largest body accepted, on the wire and decompressed. */
  maxBodyBytes: number;
  /** Redirects followed before giving up. Default 10. */
  maxRedirects?: number;
  /** Sockets open at once to one origin, per direct or proxy route. Default 32. */
  connectionsPerOrigin?: number;
  /** Default: desktop Chrome (`DEFAULT_USER_AGENT`). */
  userAgent?: string;
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
  /** Closes every pooled connection. */
  close(): Promise<void>;
}

const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function createFetchEngine(options: FetchEngineOptions): FetchEngine {
  const limit = options.maxBodyBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const baseHeaders = navigationHeaders(options.userAgent ?? DEFAULT_USER_AGENT);
  const guard: GuardOptions = {
    allowPrivate: options.allowPrivateNetworks,
    ...(options.lookup && { lookup: options.lookup }),
    ...(options.isAllowedAddress && { isAllowedAddress: options.isAllowedAddress }),
  };
  const connections = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  const dispatchers: Dispatchers = createDispatchers(guard, connections);
  // Only scrapes that ask to skip TLS verification use these; built on first use.
  let lenient: Dispatchers | null = null;
  const dispatchersFor = (plan: ScrapeRun): Dispatchers => {
    if (!plan.options.skipTlsVerification) return dispatchers;
    lenient ??= createDispatchers(guard, connections, false);
    return lenient;
  };

  async function load(
    plan: ScrapeRun,
    startUrl: URL,
    proxyUrl: string | null,
    signal: AbortSignal,
  ): Promise<FetchedPage> {
    const dispatcher = dispatchersFor(plan).get(proxyUrl);
    const headers = requestHeaders(baseHeaders, plan);
    const cookies = new RedirectCookies();
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
      const response = await request(target, {
        dispatcher,
        method: 'GET',
        headers: cookie ? { ...headers, cookie } : headers,
        signal,
      }).catch((error: unknown) => {
        throw Object.assign(toAppError(error, url.hostname), { cause: error });
      });
      cookies.store(url, response.headers['set-cookie']);
      const location = headerValue(response.headers, 'location');
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        // undici marks the socket free for reuse a tick after the body ends; asking for
        // the next hop sooner would open a second connection.
        await setImmediate();
        url = nextHop(url, location, redirects, maxRedirects, visited, cookies);
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
      return {
        finalUrl: url.href,
        status: response.statusCode,
        html: decodeBody(bytes, contentType).text,
        contentType,
      };
    }
  }

  async function loadWithFailover(plan: ScrapeRun, signal: AbortSignal): Promise<FetchedPage> {
    const url = new URL(plan.options.url);
    const [first, second] = plan.proxies;
    if (!first) return load(plan, url, null, signal);
    const attempt = async (proxyUrl: string): Promise<FetchedPage> => {
      try {
        return await load(plan, url, proxyUrl, signal);
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        if (signal.aborted || !isProxyFailure(cause, proxyUrl)) throw error;
        throw new ProxyFailure(proxyUrl, cause);
      }
    };
    try {
      return await attempt(first.url);
    } catch (error) {
      if (!second || !(error instanceof ProxyFailure)) throw error;
      return attempt(second.url);
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
 * The browser's navigation headers with the caller's: its languages as Accept-Language, a
 * phone's user agent for `mobile`, and its own headers last (they win, names compared
 * without case).
 */
function requestHeaders(base: Record<string, string>, plan: ScrapeRun): Record<string, string> {
  const { languages, mobile, headers } = plan.options;
  if (languages.length === 0 && !mobile && Object.keys(headers).length === 0) return base;
  const out = { ...base };
  if (languages.length > 0) out['accept-language'] = acceptLanguage(languages);
  if (mobile) out['user-agent'] = MOBILE_USER_AGENT;
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** `de-DE, en` → `de-DE,en;q=0.9`: each later language a little less preferred. */
export function acceptLanguage(languages: readonly string[]): string {
  return languages
    .slice(0, 10)
    .map((language, index) =>
      index === 0 ? language : `${language};q=${Math.max(0.1, 1 - index / 10).toFixed(1)}`,
    )
    .join(',');
}

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
