/**
 * A real forward proxy (proxy-chain) on loopback, with optional Basic credentials and
 * counters, so suites can prove a scrape went through it. It handles both plain HTTP
 * forwarding (absolute-form requests) and CONNECT tunnels.
 */
import { Server } from 'proxy-chain';

export interface ForwardProxyOptions {
  /** Required credentials; when set, other requests get 407. Default: none required. */
  auth?: { username: string; password: string };
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * How long an idle client connection stays open. Default: Node's 5 s, which a busy
   * machine can exceed between two scrapes; raise it where a test counts kept connections.
   */
  keepAliveTimeoutMs?: number;
}

export interface ProxiedRequest {
  hostname: string;
  port: number;
  /** false for a CONNECT tunnel. */
  isHttp: boolean;
  username: string;
}

export interface ForwardProxy {
  readonly port: number;
  /** `http://[user:pass@]host:port`, ready for PROXIES_FILE or a ProxyEndpoint. */
  readonly url: string;
  /** Requests (or CONNECT tunnels) the proxy accepted and forwarded. */
  proxied(): number;
  /** Requests refused with 407. */
  rejected(): number;
  /** TCP connections clients opened to the proxy (each CONNECT tunnel needs its own). */
  connections(): number;
  /** What was proxied, in order. */
  log(): readonly ProxiedRequest[];
  resetCounters(): void;
  close(): Promise<void>;
}

/** Starts the proxy; close it in `after()`. */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const host = options.host ?? '127.0.0.1';
  const log: ProxiedRequest[] = [];
  let rejected = 0;
  const server = new Server({
    port: 0,
    host,
    verbose: false,
    prepareRequestFunction: ({ username, password, hostname, port, isHttp }) => {
      const auth = options.auth;
      if (auth && (username !== auth.username || password !== auth.password)) {
        rejected += 1;
        return { requestAuthentication: true };
      }
      log.push({ hostname, port, isHttp, username });
      return {};
    },
  });
  if (options.keepAliveTimeoutMs !== undefined) {
    server.server.keepAliveTimeout = options.keepAliveTimeoutMs;
  }
  let connections = 0;
  server.server.on('connection', () => {
    connections += 1;
  });
  await server.listen();
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.username)}:${encodeURIComponent(options.auth.password)}@`
    : '';
  return {
    port: server.port,
    url: `http://${credentials}${host}:${server.port}`,
    proxied: () => log.length,
    rejected: () => rejected,
    connections: () => connections,
    log: () => log,
    resetCounters() {
      log.length = 0;
      rejected = 0;
      connections = 0;
    },
    close: () => server.close(true),
  };
}
