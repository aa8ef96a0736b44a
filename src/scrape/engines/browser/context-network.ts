/**
 * How one browser context reaches the network. Unless private networks are allowed, every
 * context talks to the guard proxy with its own ticket, which selects its upstream proxy
 * (or none): contexts never share a ticket, so never a route out or its credentials. The
 * guard reports what it refused or what failed, which the render turns into the errors a
 * direct Chromium would have given (Chromium only sees "tunnel failed" or "empty response").
 */
import { appError } from '../../../errors.js';
import type { GuardEvent, GuardProxy } from '../../net/guard-proxy.js';
import type { ProxyEndpoint } from '../../types.js';
import { type PlaywrightProxy, toPlaywrightProxy } from './proxy-settings.js';

/** Events kept per context between two requests (a page makes many; the first ones matter). */
const MAX_EVENTS = 64;
/**
 * The guard's bound on a render's bytes on the wire, as a multiple of the decoded bound
 * (page-bytes.ts): a backstop for what CDP does not count (WebSocket frames, shared
 * workers), set above the decoded bound because headers and framing count on the wire.
 */
const WIRE_BYTES_PER_DECODED = 2;

export interface ContextNetwork {
  /** The context's Playwright proxy (undefined: Chromium connects directly). */
  readonly proxy: PlaywrightProxy | undefined;
  /** What the guard refused or saw fail for this context since the last `clear()`. */
  readonly events: readonly GuardEvent[];
  /** Forgets the events and counts the bytes on the wire from zero (a new render). */
  clear(): void;
  /**
   * Runs `listener` once the guard cut the context's connections for their bytes on the
   * wire (null: no listener). Without the guard nothing is counted here.
   */
  onTooLarge(listener: (() => void) | null): void;
  /**
   * Ends the context's connections to its upstream proxy, so that the next scrape on this
   * warm context opens its own (rotation). Without the guard Chromium holds them: false,
   * and the engine retires a proxied page after each scrape instead.
   */
  recycle(): boolean;
  /** Gives the guard ticket back once the context is closed. */
  release(): void;
}

/** Without the guard: the upstream proxy (if any) straight in the context. */
export function directNetwork(proxy: ProxyEndpoint | null): ContextNetwork {
  return {
    proxy: toPlaywrightProxy(proxy),
    events: [],
    clear() {},
    onTooLarge() {},
    recycle: () => proxy === null,
    release() {},
  };
}

/** `maxBodyBytes`: MAX_BODY_BYTES, the decoded bound of one render. */
export function guardedNetwork(
  guard: GuardProxy,
  proxy: ProxyEndpoint | null,
  maxBodyBytes: number,
): ContextNetwork {
  const events: GuardEvent[] = [];
  let tooLarge: (() => void) | null = null;
  const ticket = guard.register({
    upstream: proxy?.url ?? null,
    maxBytes: maxBodyBytes * WIRE_BYTES_PER_DECODED,
    onEvent: (event) => {
      if (events.length < MAX_EVENTS) events.push(event);
      if (event.kind === 'too-large') tooLarge?.();
    },
  });
  return {
    proxy: { server: ticket.server, username: ticket.username, password: ticket.password },
    events,
    clear: () => {
      events.length = 0;
      ticket.recount();
    },
    onTooLarge: (listener) => {
      tooLarge = listener;
    },
    recycle: () => {
      ticket.recycle();
      return true;
    },
    release: ticket.release,
  };
}

/** Chromium's names for what the guard saw fail, so that error texts match a direct render. */
const NET_CODES: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'ERR_ADDRESS_UNREACHABLE',
};

/**
 * Why a navigation failed, from the guard's side, or null when the guard saw nothing that
 * explains it. `mainHosts` are the hosts the main document (and its redirects) went to.
 * A refusal is the SSRF error; an upstream failure becomes Chromium's proxy error (so the
 * engine fails over to the next proxy); a target failure becomes Chromium's own code.
 */
export function explainNavigationFailure(
  events: readonly GuardEvent[],
  mainHosts: ReadonlySet<string>,
): Error | null {
  const main = events.filter((e) => mainHosts.has(e.host));
  const refused = main.find((e) => e.kind === 'refused');
  if (refused?.kind === 'refused' && refused.reason !== 'service-host') {
    return refused.reason === 'unresolved'
      ? appError('FETCH_FAILED', `could not resolve ${refused.host}`)
      : appError('URL_NOT_ALLOWED', refused.host);
  }
  const upstream = main.find((e) => e.kind === 'upstream-failed');
  if (upstream) {
    const code = upstream.code.startsWith('HTTP ')
      ? 'ERR_TUNNEL_CONNECTION_FAILED'
      : 'ERR_PROXY_CONNECTION_FAILED';
    return new Error(`net::${code} (the guard proxy: upstream ${upstream.code})`);
  }
  const target = main.find((e) => e.kind === 'target-failed');
  if (target?.kind === 'target-failed') {
    return new Error(`net::${NET_CODES[target.code] ?? 'ERR_CONNECTION_FAILED'}`);
  }
  return null;
}
