/**
 * The guard proxy's ways out: a TCP socket to the target (CONNECT tunnels) and a plain
 * HTTP request for it (absolute-URI requests), either direct or through an upstream proxy.
 *
 * Direct, the target is vetted and pinned at the socket: names resolve through
 * `createGuardedLookup`, so the socket connects to the very address that was checked (a
 * second DNS answer never gets a say), and IP literals are checked before connecting.
 * Through an upstream proxy the upstream resolves the target, so the name is checked here
 * the way the fetch engine checks it (all of its addresses must be allowed) and then sent.
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isIpLiteral } from './address-policy.js';
import {
  AddressNotAllowedError,
  assertAddressAllowed,
  checkUrlAllowed,
  createGuardedLookup,
  type GuardOptions,
  type SocketLookup,
} from './ssrf-guard.js';

/** Why a way out failed: the guard refused it, the upstream proxy failed, or the target did. */
export class GuardFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'upstream' | 'target',
    /** non-public | unresolved for 'refused'; an errno code or `HTTP <status>` otherwise. */
    readonly code: string,
  ) {
    super(`${kind}: ${code}`);
    this.name = 'GuardFailure';
  }
}

/** An upstream proxy as the guard uses it. */
export interface Upstream {
  url: URL;
  /** `Basic ...` or null without credentials. */
  authorization: string | null;
  agent: HttpAgent;
}

export function upstreamOf(proxyUrl: string): Upstream {
  const url = new URL(proxyUrl);
  const user = decodeURIComponent(url.username);
  const authorization = user
    ? `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  const agent =
    url.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true })
      : new HttpAgent({ keepAlive: true });
  return { url, authorization, agent };
}

export interface Egress {
  guard: GuardOptions;
  lookup: SocketLookup;
  connectTimeoutMs: number;
  /** Keep-alive sockets for direct plain-HTTP requests. */
  directAgent: HttpAgent;
}

export function createEgress(guard: GuardOptions, connectTimeoutMs: number): Egress {
  return {
    guard,
    lookup: createGuardedLookup(guard),
    connectTimeoutMs,
    directAgent: new HttpAgent({ keepAlive: true }),
  };
}

/** An IP literal in the form a socket takes (`127.1` becomes `127.0.0.1`), else the name. */
function connectHost(host: string): string {
  return isIpLiteral(host) ? ipaddr.parse(host.replace(/%.*$/, '')).toString() : host;
}

/** Maps a failed direct connection to a GuardFailure. */
function targetError(error: NodeJS.ErrnoException): GuardFailure {
  if (error instanceof AddressNotAllowedError) return new GuardFailure('refused', 'non-public');
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return new GuardFailure('refused', 'unresolved');
  }
  return new GuardFailure('target', error.code ?? 'ECONNRESET');
}

/** Throws GuardFailure('refused') when the target may not be reached through a proxy. */
async function vetName(host: string, egress: Egress): Promise<void> {
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const check = await checkUrlAllowed(`http://${bracketed}/`, egress.guard);
  if (!check.allowed) throw new GuardFailure('refused', check.reason);
}

function vetLiteral(host: string, egress: Egress): void {
  if (!isIpLiteral(host)) return;
  try {
    assertAddressAllowed(host, host, egress.guard);
  } catch {
    throw new GuardFailure('refused', 'non-public');
  }
}

/**
 * A connected TCP socket to host:port (direct, pinned to the vetted address). The socket
 * never lacks an 'error' listener: a connect can fail in the tick it starts (ENETUNREACH,
 * EACCES), and an 'error' event with no listener ends the process. After the connect it
 * keeps a quiet one until the caller's own is on.
 */
export async function connectDirect(host: string, port: number, egress: Egress): Promise<Socket> {
  vetLiteral(host, egress);
  return await new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(targetError(error));
    const socket = connect({
      host: connectHost(host),
      port,
      lookup: egress.lookup,
      autoSelectFamily: true,
    });
    socket.on('error', failed);
    socket.setTimeout(egress.connectTimeoutMs, () =>
      socket.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.on('error', ignore).off('error', failed);
      resolve(socket);
    });
  });
}

/** Holds an 'error' event between two owners of a socket; the new owner adds its own. */
function ignore(): void {}

/** A tunnel to host:port through the upstream proxy (CONNECT with its credentials). */
export async function connectVia(
  upstream: Upstream,
  host: string,
  port: number,
  egress: Egress,
): Promise<{ socket: Socket; head: Buffer }> {
  await vetName(host, egress);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const request = (upstream.url.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: upstream.url.hostname.replace(/^\[|\]$/g, ''),
    port: upstream.url.port || (upstream.url.protocol === 'https:' ? 443 : 80),
    method: 'CONNECT',
    path: authority,
    headers: {
      host: authority,
      ...(upstream.authorization ? { 'proxy-authorization': upstream.authorization } : {}),
    },
    timeout: egress.connectTimeoutMs,
    agent: false,
  });
  return new Promise((resolve, reject) => {
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(new GuardFailure('upstream', error.code ?? 'ECONNRESET')),
    );
    request.once('connect', (response: IncomingMessage, socket: Socket, head: Buffer) => {
      // The request stops listening to a socket it hands over; the tunnel's owner listens later.
      socket.on('error', ignore);
      if (response.statusCode === 200) {
        socket.setTimeout(0); // the request's connect timeout must not cut a quiet tunnel
        return resolve({ socket, head });
      }
      socket.destroy();
      reject(new GuardFailure('upstream', `HTTP ${response.statusCode}`));
    });
    request.once('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    request.end();
  });
}

export interface PlainRequest {
  method: string;
  url: URL;
  headers: Record<string, string | string[]>;
}

/**
 * Vets a plain HTTP request's target before anything opens: throws GuardFailure('refused').
 * Direct, only an IP literal is checked here (a name is checked by the pinned lookup);
 * through an upstream the name is checked as the fetch engine checks it.
 */
export async function vetPlain(url: URL, upstream: Upstream | null, egress: Egress): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (upstream === null) vetLiteral(host, egress);
  else await vetName(host, egress);
}

/**
 * Opens a plain HTTP request for the target (vetted by `vetPlain`): direct (origin-form,
 * pinned socket) or as an absolute-URI request to the upstream. Synchronous, with `onError`
 * attached before it returns: a connect that fails at once reports in the next tick, and an
 * 'error' event with no listener ends the process (issue 24). `onError` may be called more
 * than once (see plainError). No timeout of its own: a slow answer is the page's business,
 * and the request dies with its client.
 */
export function openPlain(
  plain: PlainRequest,
  upstream: Upstream | null,
  egress: Egress,
  onError: (error: NodeJS.ErrnoException) => void,
): ClientRequest {
  const host = plain.url.hostname.replace(/^\[|\]$/g, '');
  const request =
    upstream === null
      ? httpRequest({
          host: connectHost(host),
          port: plain.url.port || 80,
          path: `${plain.url.pathname}${plain.url.search}`,
          method: plain.method,
          headers: plain.headers,
          lookup: egress.lookup,
          agent: egress.directAgent,
        })
      : (upstream.url.protocol === 'https:' ? httpsRequest : httpRequest)({
          host: upstream.url.hostname.replace(/^\[|\]$/g, ''),
          port: upstream.url.port || (upstream.url.protocol === 'https:' ? 443 : 80),
          path: plain.url.href,
          method: plain.method,
          headers: upstream.authorization
            ? { ...plain.headers, 'proxy-authorization': upstream.authorization }
            : plain.headers,
          agent: upstream.agent,
        });
  return request.on('error', onError);
}

/** Maps an error of a forwarded plain request (see openPlain). */
export function plainError(error: NodeJS.ErrnoException, viaUpstream: boolean): GuardFailure {
  if (error instanceof GuardFailure) return error;
  if (viaUpstream) return new GuardFailure('upstream', error.code ?? 'ECONNRESET');
  return targetError(error);
}
