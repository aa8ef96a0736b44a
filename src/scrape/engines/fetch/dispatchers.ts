/**
 * The routes out of the fetch engine. Direct connections are pooled for the life of the
 * engine, so repeated scrapes of a host reuse keep-alive sockets. Through an upstream proxy
 * every scrape gets a dispatcher of its own (`proxyDispatcher`), closed when the scrape
 * ends: its own connection and CONNECT tunnel, so a rotating gateway can give it a new exit
 * address and no connection to a proxy is ever shared between scrapes, let alone accounts.
 * A sticky session keeps its own one (sessions.ts) for all of its scrapes.
 *
 * Direct connections go through the SSRF guard at the socket: names resolve through the
 * guarded lookup (the socket connects to the very address that was checked) and IP
 * literals, which skip lookup, are checked before connecting. Through a proxy the target
 * is resolved by the proxy, so only the engine's explicit per-hop check applies there.
 */
import { Agent, buildConnector, type Dispatcher, ProxyAgent } from 'undici';
import { isIpLiteral } from '../../net/address-policy.js';
import {
  assertAddressAllowed,
  createGuardedLookup,
  type GuardOptions,
} from '../../net/ssrf-guard.js';

/** How long to wait for a TCP/TLS connection before giving up (undici's default too). */
const CONNECT_TIMEOUT_MS = 10_000;

export interface Dispatchers {
  /** The pooled direct dispatcher (the only route: proxies get `proxyDispatcher`). */
  get(proxyUrl: null): Dispatcher;
  close(): Promise<void>;
}

/**
 * A new dispatcher through one upstream proxy: at most `connections` sockets to it, each
 * its own CONNECT tunnel (plain-http targets too). Credentials in the URL become
 * Proxy-Authorization (undici reads them itself). The caller closes it.
 */
export function proxyDispatcher(proxyUrl: string, verifyTls: boolean, connections = 1): Dispatcher {
  return new ProxyAgent({
    uri: proxyUrl,
    proxyTls: { timeout: CONNECT_TIMEOUT_MS },
    ...(verifyTls ? {} : { requestTls: { rejectUnauthorized: false } }),
    connections,
  });
}

function guardedConnector(guard: GuardOptions, verifyTls: boolean): buildConnector.connector {
  const connect = buildConnector({
    lookup: createGuardedLookup(guard),
    timeout: CONNECT_TIMEOUT_MS,
    ...(verifyTls ? {} : { rejectUnauthorized: false }),
  });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (isIpLiteral(host)) {
      try {
        assertAddressAllowed(host, host, guard);
      } catch (error) {
        return callback(error as Error, null);
      }
    }
    connect(options, callback);
  };
}

/**
 * `connectionsPerOrigin` caps the sockets open to one origin (per route out); further
 * requests wait for a free one within their deadline. It keeps a burst of scrapes of one
 * site from opening hundreds of connections to it.
 */
export function createDispatchers(
  guard: GuardOptions,
  connectionsPerOrigin: number,
  /** false: accept any certificate of the target (a caller's skipTlsVerification). */
  verifyTls = true,
): Dispatchers {
  const direct = new Agent({
    connect: guardedConnector(guard, verifyTls),
    connections: connectionsPerOrigin,
  });
  return {
    get: () => direct,
    close: () => direct.close(),
  };
}
