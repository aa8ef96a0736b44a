/**
 * One undici dispatcher per route out (direct, or each upstream proxy), kept for the life
 * of the engine so that repeated scrapes of a host reuse keep-alive sockets.
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
  /** The dispatcher for a proxy URL, or the direct one for null. */
  get(proxyUrl: string | null): Dispatcher;
  close(): Promise<void>;
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
  const proxies = new Map<string, ProxyAgent>();
  return {
    get(proxyUrl) {
      if (proxyUrl === null) return direct;
      let agent = proxies.get(proxyUrl);
      if (!agent) {
        // Credentials in the URL become Proxy-Authorization (undici reads them itself).
        agent = new ProxyAgent({
          uri: proxyUrl,
          proxyTls: { timeout: CONNECT_TIMEOUT_MS },
          ...(verifyTls ? {} : { requestTls: { rejectUnauthorized: false } }),
          connections: connectionsPerOrigin,
        });
        proxies.set(proxyUrl, agent);
      }
      return agent;
    },
    async close() {
      await Promise.all([direct.close(), ...[...proxies.values()].map((a) => a.close())]);
      proxies.clear();
    },
  };
}
