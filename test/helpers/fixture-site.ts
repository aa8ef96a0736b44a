/**
 * A fixture web site on loopback for every suite: fixed pages, request counters per path,
 * a counter of accepted TCP connections, and endpoints that misbehave on purpose (slow,
 * huge, redirect chains and loops, odd charsets, compressed bodies). Tests may add their
 * own routes with `route()` / `html()`.
 *
 * Built-in endpoints (paths; query parameters in brackets):
 * - `/`, `/page`                 a small HTML page (title "Fixture page", links, a paragraph)
 * - `/big`                       an HTML page of about 100 KB
 * - `/json`, `/text`             `application/json` and `text/plain` bodies
 * - `/status/<code>`             an HTML page answered with that status (e.g. `/status/404`)
 * - `/slow[?ms=2000]`            headers only after `ms`
 * - `/slow-body[?ms=2000]`       headers and a first chunk at once, the rest after `ms`
 * - `/huge[?mb=25]`              streams `mb` MiB of HTML (stops when the client goes away)
 * - `/redirect/chain[?n=3&status=302]`  n redirects (relative Location) ending on `/page`
 * - `/redirect/loop`             /redirect/loop → /redirect/loop-b → /redirect/loop ...
 * - `/redirect/to?url=<abs>[&status=302]`  one redirect to any URL
 * - `/redirect/see-other`        303 to `/echo` (a POST must become a GET)
 * - `/echo`                      JSON of the request's method, url and headers
 * - `/charset/header-1252`       windows-1252 bytes 0x80..0x9F declared in Content-Type
 * - `/charset/latin1-label`      same bytes, declared `charset=iso-8859-1` (WHATWG: windows-1252)
 * - `/charset/undeclared-1252`   same bytes, no declaration at all
 * - `/charset/meta-1252`         same bytes, `<meta charset="windows-1252">`
 * - `/charset/shift-jis-header`  Shift_JIS bytes declared in Content-Type
 * - `/charset/shift-jis-meta`    Shift_JIS bytes, `<meta http-equiv="Content-Type" ...>`
 * - `/charset/utf8-bom`          UTF-8 with a BOM, header claims windows-1252 (BOM wins)
 * - `/charset/utf16le-bom`       UTF-16LE with a BOM, no declaration
 * - `/gzip`, `/br`, `/deflate`, `/deflate-raw`   the plain page, compressed that way
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

export interface FixtureSiteOptions {
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on. Default 0 (any free port). */
  port?: number;
}

export interface FixtureSite {
  /** `http://<host>:<port>` without a trailing slash. */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  /** Absolute URL of a path on this site. */
  url(path: string): string;
  /** Requests received for a pathname (query ignored). */
  hits(pathname: string): number;
  /** All requests received. */
  totalHits(): number;
  /** TCP connections accepted since start (or the last `resetCounters`). */
  connections(): number;
  resetCounters(): void;
  /** Adds or replaces a route for an exact pathname. */
  route(pathname: string, handler: RouteHandler): void;
  /** Shortcut: serve this HTML (UTF-8) at this pathname. */
  html(pathname: string, body: string, status?: number): void;
  close(): Promise<void>;
}

export const FIXTURE_PAGE_TITLE = 'Fixture page';

export const PLAIN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${FIXTURE_PAGE_TITLE}</title></head>
<body><nav><a href="/big">Big</a> <a href="/json">JSON</a></nav>
<main><h1>Hello fixture</h1><p>A plain paragraph with a <a href="/page">link</a>.</p></main>
</body></html>
`;

/** Bytes 0x80..0x9F in windows-1252: € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ. */
export const CP1252_HIGH_BYTES = Buffer.from(
  Array.from({ length: 0x20 }, (_, i) => 0x80 + i).filter(
    (b) => ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b),
  ),
);
/** The same characters as a string, for assertions. */
export const CP1252_HIGH_TEXT = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** Japanese text served as Shift_JIS. */
export const SHIFT_JIS_TEXT = 'こんにちは世界';

function cp1252Page(head: string): Buffer {
  return Buffer.concat([
    Buffer.from(`<!doctype html><html><head>${head}<title>cp1252</title></head><body><p>`),
    CP1252_HIGH_BYTES,
    Buffer.from('</p></body></html>'),
  ]);
}

function sjisPage(head: string): Buffer {
  return iconv.encode(
    `<!doctype html><html><head>${head}<title>sjis</title></head><body><p>${SHIFT_JIS_TEXT}</p></body></html>`,
    'shift_jis',
  );
}

function bigPage(): string {
  const row = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.</p>\n';
  const rows = row.repeat(Math.ceil(100_000 / row.length));
  return `<!doctype html><html><head><meta charset="utf-8"><title>Big</title></head><body>${rows}</body></html>`;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

function intParam(url: URL, name: string, fallback: number): number {
  const value = Number(url.searchParams.get(name));
  return url.searchParams.has(name) && Number.isFinite(value) ? value : fallback;
}

function builtInRoutes(): Map<string, RouteHandler> {
  const routes = new Map<string, RouteHandler>();
  const htmlType = 'text/html; charset=utf-8';
  const page: RouteHandler = (_req, res) => send(res, 200, htmlType, PLAIN_PAGE);
  routes.set('/', page);
  routes.set('/page', page);
  const big = bigPage();
  routes.set('/big', (_req, res) => send(res, 200, htmlType, big));
  routes.set('/json', (_req, res) => send(res, 200, 'application/json', '{"ok":true,"n":1}'));
  routes.set('/text', (_req, res) => send(res, 200, 'text/plain', 'just text\n'));
  routes.set('/echo', (req, res, url) =>
    send(
      res,
      200,
      'application/json',
      JSON.stringify({ method: req.method, url: url.pathname + url.search, headers: req.headers }),
    ),
  );
  routes.set('/slow', (_req, res, url) => {
    const timer = setTimeout(() => send(res, 200, htmlType, PLAIN_PAGE), intParam(url, 'ms', 2000));
    res.on('close', () => clearTimeout(timer));
  });
  routes.set('/slow-body', (_req, res, url) => {
    res.writeHead(200, { 'content-type': htmlType });
    res.write('<!doctype html><html><body><p>first</p>');
    const timer = setTimeout(() => res.end('<p>last</p></body></html>'), intParam(url, 'ms', 2000));
    res.on('close', () => clearTimeout(timer));
  });
  routes.set('/huge', (_req, res, url) => {
    const total = intParam(url, 'mb', 25) * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    res.writeHead(200, { 'content-type': htmlType });
    const pump = (): void => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  const redirect = (res: ServerResponse, status: number, location: string): void => {
    res.writeHead(status, { location, 'content-length': 0 });
    res.end();
  };
  routes.set('/redirect/chain', (_req, res, url) => {
    const n = intParam(url, 'n', 3);
    const status = intParam(url, 'status', 302);
    if (n <= 1) return redirect(res, status, '/page');
    redirect(res, status, `chain?n=${n - 1}&status=${status}`);
  });
  routes.set('/redirect/loop', (_req, res) => redirect(res, 302, '/redirect/loop-b'));
  routes.set('/redirect/loop-b', (_req, res) => redirect(res, 302, '/redirect/loop'));
  routes.set('/redirect/to', (_req, res, url) =>
    redirect(res, intParam(url, 'status', 302), url.searchParams.get('url') ?? '/page'),
  );
  routes.set('/redirect/see-other', (_req, res) => redirect(res, 303, '/echo'));
  const cp1252 = 'text/html; charset=windows-1252';
  routes.set('/charset/header-1252', (_req, res) => send(res, 200, cp1252, cp1252Page('')));
  routes.set('/charset/latin1-label', (_req, res) =>
    send(res, 200, 'text/html; charset=ISO-8859-1', cp1252Page('')),
  );
  routes.set('/charset/undeclared-1252', (_req, res) =>
    send(res, 200, 'text/html', cp1252Page('')),
  );
  routes.set('/charset/meta-1252', (_req, res) =>
    send(res, 200, 'text/html', cp1252Page('<meta charset="windows-1252">')),
  );
  routes.set('/charset/shift-jis-header', (_req, res) =>
    send(res, 200, 'text/html; charset=Shift_JIS', sjisPage('')),
  );
  routes.set('/charset/shift-jis-meta', (_req, res) =>
    send(
      res,
      200,
      'text/html',
      sjisPage('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">'),
    ),
  );
  routes.set('/charset/utf8-bom', (_req, res) =>
    send(
      res,
      200,
      cp1252,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>naïve café €</p>')]),
    ),
  );
  routes.set('/charset/utf16le-bom', (_req, res) =>
    send(
      res,
      200,
      'text/html',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>naïve café €</p>', 'utf16le')]),
    ),
  );
  const compressed = (encoding: string, bytes: Buffer): RouteHandler => {
    return (_req, res) => {
      res.writeHead(200, {
        'content-type': htmlType,
        'content-encoding': encoding,
        'content-length': bytes.length,
      });
      res.end(bytes);
    };
  };
  routes.set('/gzip', compressed('gzip', gzipSync(PLAIN_PAGE)));
  routes.set('/br', compressed('br', brotliCompressSync(PLAIN_PAGE)));
  routes.set('/deflate', compressed('deflate', deflateSync(PLAIN_PAGE)));
  // Some servers send raw DEFLATE under "deflate"; clients must accept both.
  routes.set('/deflate-raw', compressed('deflate', deflateRawSync(PLAIN_PAGE)));
  return routes;
}

/** Starts the fixture site; close it in `after()`. */
export async function startFixtureSite(options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const host = options.host ?? '127.0.0.1';
  const routes = builtInRoutes();
  const hits = new Map<string, number>();
  let total = 0;
  let connections = 0;
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    total += 1;
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    const handler = routes.get(url.pathname);
    if (handler) return handler(req, res, url);
    if (status) return send(res, Number(status[1]), 'text/html', `<h1>Status ${status[1]}</h1>`);
    send(res, 404, 'text/html', '<h1>Not found</h1>');
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    origin,
    host,
    port,
    url: (path) => new URL(path, origin).href,
    hits: (pathname) => hits.get(pathname) ?? 0,
    totalHits: () => total,
    connections: () => connections,
    resetCounters() {
      hits.clear();
      total = 0;
      connections = 0;
    },
    route(pathname, handler) {
      routes.set(pathname, handler);
    },
    html(pathname, body, status = 200) {
      routes.set(pathname, (_req, res) => send(res, status, 'text/html; charset=utf-8', body));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
