/**
 * The guarded forward proxy (issue 4, point 5): a loopback HTTP proxy that every browser
 * context is pointed at, so that EVERY connection the page makes (navigation, redirect
 * hops, sub-resources, out-of-process iframes, workers, WebSockets) is vetted by the SSRF
 * guard in this process and connects to the address that was vetted. Playwright's routing
 * cannot see all of those, and Chromium resolving names itself could be rebound.
 *
 * Each context registers a ticket (Basic credentials) that selects its route out: direct,
 * or chained through its own upstream proxy with that proxy's credentials. A refused
 * CONNECT is answered 403 and a refused plain request gets its connection closed, so the
 * page sees a network error; what happened is reported to the ticket's `onEvent`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  connectDirect,
  connectVia,
  createEgress,
  GuardFailure,
  openPlain,
  plainError,
  type Upstream,
  upstreamOf,
  vetPlain,
} from './guard-proxy-connect.js';
import type { GuardOptions } from './ssrf-guard.js';

export type GuardEvent =
  | { kind: 'refused'; host: string; reason: 'non-public' | 'unresolved' | 'service-host' }
  /** The upstream proxy could not be reached or did not open the tunnel (errno or `HTTP <status>`). */
  | { kind: 'upstream-failed'; host: string; code: string }
  /** The target itself failed (errno code, e.g. ECONNREFUSED). */
  | { kind: 'target-failed'; host: string; code: string }
  /** The ticket received more than its `maxBytes`: its connections were cut. */
  | { kind: 'too-large'; host: string; bytes: number };

export interface GuardRoute {
  /** The upstream proxy URL (credentials included), or null to connect directly. */
  upstream: string | null;
  onEvent?: (event: GuardEvent) => void;
  /**
   * Bytes the ticket may receive from its targets, as on the wire, since it was registered
   * or last `recount()`: past it every connection of the ticket is cut (and any later one
   * at its first byte) and `too-large` is reported once. Default: no bound.
   */
  maxBytes?: number;
}

export interface GuardTicket {
  /** `http://127.0.0.1:<port>` */
  server: string;
  username: string;
  password: string;
  /**
   * Closes the ticket's tunnels and its connections to the upstream proxy: the context's
   * next request opens new ones (a rotating gateway's next exit address).
   */
  recycle(): void;
  /** Forgets the ticket (closing its connections): later requests with it get 407. */
  release(): void;
  /** Counts received bytes from zero again (the context's next render). */
  recount(): void;
}

export interface GuardProxyOptions {
  /** The SSRF policy: resolver and address classification (`allowPrivate` is ignored: the guard always checks). */
  guard: Omit<GuardOptions, 'allowPrivate'>;
  /** Hosts refused outright whatever they resolve to (Chromium's own service hosts). Default: none. */
  refuseHost?: (host: string) => boolean;
  /** Longest wait for a TCP connection (target or upstream). Default 10000 ms. */
  connectTimeoutMs?: number;
}

export interface GuardProxy {
  readonly port: number;
  register(route: GuardRoute): GuardTicket;
  /** Tickets registered and not released (leak check). */
  tickets(): number;
  close(): Promise<void>;
}

/**
 * A context's route. Its upstream (and the keep-alive agent in it) is its own: connections
 * to an upstream proxy are never shared between contexts, so never between accounts.
 */
interface Ticket {
  password: string;
  upstreamUrl: string | null;
  upstream: Upstream | null;
  /** Its open CONNECT tunnels, both ends. */
  tunnels: Set<Socket>;
  onEvent: (event: GuardEvent) => void;
  maxBytes: number;
  /** Bytes received from targets since the last recount. */
  received: number;
}

/**
 * Counts `length` bytes received for `ticket` from `host`; true when the ticket is past its
 * bound, and then (the first time) its connections are cut and the event reported.
 */
function overBound(ticket: Ticket, host: string, length: number): boolean {
  const before = ticket.received;
  ticket.received += length;
  if (ticket.received <= ticket.maxBytes) return false;
  if (before <= ticket.maxBytes) {
    closeConnections(ticket);
    ticket.onEvent({ kind: 'too-large', host, bytes: ticket.received });
  }
  return true;
}

function closeConnections(ticket: Ticket): void {
  for (const socket of ticket.tunnels) socket.destroy();
  ticket.tunnels.clear();
  ticket.upstream?.agent.destroy();
}

/** Request headers a proxy must not pass on (RFC 9110 7.6.1), plus the proxy's own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

function endToEnd(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const listed = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

function rawEndToEnd(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    if (HOP_BY_HOP.has(name) || name === 'transfer-encoding') continue;
    out.push(raw[i] ?? '', raw[i + 1] ?? '');
  }
  return out;
}

function splitAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(authority);
  if (!match) return null;
  return { host: (match[1] ?? match[2] ?? '').toLowerCase(), port: Number(match[3]) };
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const egress = createEgress(
    { ...options.guard, allowPrivate: false },
    options.connectTimeoutMs ?? 10_000,
  );
  const refuseHost = options.refuseHost ?? (() => false);
  const tickets = new Map<string, Ticket>();
  const server = createServer();
  /** Open CONNECT tunnels (the server stops tracking a socket once it is tunnelled). */
  const tunnels = new Set<Socket>();

  const ticketOf = (req: IncomingMessage): Ticket | null => {
    const header = req.headers['proxy-authorization'] ?? '';
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match) return null;
    const decoded = Buffer.from(match[1] ?? '', 'base64').toString();
    const colon = decoded.indexOf(':');
    const ticket = tickets.get(decoded.slice(0, colon));
    return ticket && colon > 0 && ticket.password === decoded.slice(colon + 1) ? ticket : null;
  };

  const report = (ticket: Ticket, host: string, failure: GuardFailure): void => {
    if (failure.kind === 'refused') {
      ticket.onEvent({
        kind: 'refused',
        host,
        reason: failure.code as 'non-public' | 'unresolved',
      });
    } else if (failure.kind === 'upstream') {
      ticket.onEvent({ kind: 'upstream-failed', host, code: failure.code });
    } else {
      ticket.onEvent({ kind: 'target-failed', host, code: failure.code });
    }
  };

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => {});
    tunnels.add(client);
    client.once('close', () => tunnels.delete(client));
    const answer = (status: string) =>
      client.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    const ticket = ticketOf(req);
    if (!ticket) {
      return void client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="guard"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
    }
    const target = splitAuthority(req.url ?? '');
    if (!target) return answer('400 Bad Request');
    if (refuseHost(target.host)) {
      ticket.onEvent({ kind: 'refused', host: target.host, reason: 'service-host' });
      return answer('403 Forbidden');
    }
    const opening = ticket.upstream
      ? connectVia(ticket.upstream, target.host, target.port, egress)
      : connectDirect(target.host, target.port, egress).then((socket) => ({
          socket,
          head: Buffer.alloc(0),
        }));
    opening
      .then(
        ({ socket, head: upstreamHead }) => {
          if (client.destroyed) return void socket.destroy();
          tunnels.add(socket);
          ticket.tunnels.add(socket).add(client);
          socket.once('close', () => ticket.tunnels.delete(socket));
          client.once('close', () => ticket.tunnels.delete(client));
          // Ends travel through the pipes (buffered bytes flushed); errors tear down both.
          socket.once('close', () => tunnels.delete(socket));
          socket.on('error', () => client.destroy());
          client.on('error', () => socket.destroy());
          socket.on('data', (chunk: Buffer) => {
            if (!overBound(ticket, target.host, chunk.length)) return;
            socket.destroy();
            client.destroy();
          });
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (upstreamHead.length > 0) client.write(upstreamHead);
          if (head.length > 0) socket.write(head);
          socket.pipe(client);
          client.pipe(socket);
        },
        (error: unknown) => {
          const failure =
            error instanceof GuardFailure ? error : new GuardFailure('target', 'ECONNRESET');
          report(ticket, target.host, failure);
          answer(failure.kind === 'refused' ? '403 Forbidden' : '502 Bad Gateway');
        },
      )
      // A throw in either handler must not become an unhandled rejection (it ends the process).
      .catch(() => client.destroy());
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const ticket = ticketOf(req);
    if (!ticket) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="guard"', 'content-length': '0' });
      return void res.end();
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new TypeError('not http');
    } catch {
      res.writeHead(400, { 'content-length': '0' });
      return void res.end();
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A refused or failed plain request closes the connection: a 403 would be a response
    // the page could render, a closed connection is a network error.
    const fail = (failure: GuardFailure) => {
      report(ticket, host, failure);
      req.socket.destroy();
    };
    if (refuseHost(host)) {
      ticket.onEvent({ kind: 'refused', host, reason: 'service-host' });
      return void req.socket.destroy();
    }
    const plain = { method: req.method ?? 'GET', url, headers: endToEnd(req.headers) };
    const forward = () => {
      if (req.socket.destroyed) return; // the page gave up while the name was vetted
      const outgoing = openPlain(plain, ticket.upstream, egress, (error) => {
        if (!res.headersSent) fail(plainError(error, ticket.upstream !== null));
        else res.destroy();
      });
      outgoing.on('response', (answer) => {
        answer.on('error', () => res.destroy());
        // A throw here would surface in the HTTP parser's callback: uncaught, the process ends.
        try {
          res.writeHead(
            answer.statusCode ?? 502,
            answer.statusMessage,
            rawEndToEnd(answer.rawHeaders),
          );
          answer.on('data', (chunk: Buffer) => {
            if (overBound(ticket, host, chunk.length)) res.destroy();
          });
          answer.pipe(res);
        } catch {
          answer.destroy();
          res.destroy();
        }
      });
      res.on('close', () => {
        if (!res.writableFinished) outgoing.destroy();
      });
      req.pipe(outgoing);
    };
    // Whatever throws on the way (a header Node will not send) fails this request only.
    vetPlain(url, ticket.upstream, egress)
      .then(forward)
      .catch((error: NodeJS.ErrnoException) => fail(plainError(error, ticket.upstream !== null)));
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };

  return {
    port,
    register(route) {
      const username = randomBytes(12).toString('hex');
      const password = randomBytes(12).toString('hex');
      const ticket: Ticket = {
        password,
        upstreamUrl: route.upstream,
        upstream: route.upstream === null ? null : upstreamOf(route.upstream),
        tunnels: new Set(),
        onEvent: route.onEvent ?? (() => {}),
        maxBytes: route.maxBytes ?? Number.POSITIVE_INFINITY,
        received: 0,
      };
      tickets.set(username, ticket);
      return {
        server: `http://127.0.0.1:${port}`,
        username,
        password,
        recycle() {
          closeConnections(ticket);
          if (ticket.upstreamUrl !== null) ticket.upstream = upstreamOf(ticket.upstreamUrl);
        },
        release() {
          tickets.delete(username);
          closeConnections(ticket);
        },
        recount() {
          ticket.received = 0;
        },
      };
    },
    tickets: () => tickets.size,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      egress.directAgent.destroy();
      for (const ticket of tickets.values()) closeConnections(ticket);
      tickets.clear();
      await closed;
    },
  };
}
