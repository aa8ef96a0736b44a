/**
 * Issue 24, point 2: MAX_BODY_BYTES bounds a render as it bounds a fetch. A large document,
 * a small document pulling large sub-resources and a gzip bomb each end in the fetch's
 * 502 text, uncharged, with the load stopped; the next render of a normal page succeeds.
 * The service runs with the address guard on (loopback let through by a test policy), as
 * in production, so every connection goes through the guard proxy.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createGzip } from 'node:zlib';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { balanceOf, startService, type TestService } from '../helpers/service.js';

const LIMIT = 1024 * 1024;
const TOO_LARGE = `Failed to fetch the page: response body exceeds ${LIMIT} bytes`;
const SUB_RESOURCES = 5;
const SUB_RESOURCE_BYTES = 400 * 1024;

let site: FixtureSite;
let service: TestService;
let wsServer: Server;
let wsPort = 0;
/** Ends the WebSocket page's document (called once its socket's flood is over). */
let endSocketPage: () => void = () => {};
/** Bytes of the large document the site wrote (it stops when the client goes away). */
let documentSent = 0;

/** Streams `total` bytes of HTML, as fast as the reader takes them. */
function hugeDocument(res: ServerResponse, total: number): void {
  res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const pump = (): void => {
    while (documentSent < total && !res.destroyed) {
      documentSent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** Streams `total` bytes of zeros, gzip-compressed on the fly (a few KB on the wire). */
function gzipBomb(res: ServerResponse, total: number): void {
  res.writeHead(200, {
    'content-type': 'text/html',
    'content-encoding': 'gzip',
    'cache-control': 'no-store',
  });
  const gzip = createGzip();
  gzip.pipe(res);
  const chunk = Buffer.alloc(64 * 1024);
  let produced = 0;
  const pump = (): void => {
    while (produced < total && !res.destroyed) {
      produced += chunk.length;
      if (!gzip.write(chunk)) return void gzip.once('drain', pump);
    }
    gzip.end();
  };
  res.on('close', () => gzip.destroy());
  pump();
}

/**
 * Accepts a WebSocket (RFC 6455 handshake) and sends `total` bytes in binary frames of
 * 64 KiB: bytes CDP does not count, which only the guard proxy sees.
 */
function floodWebSocket(req: IncomingMessage, socket: Duplex, total: number): Promise<void> {
  const accept = createHash('sha1')
    .update(`${req.headers['sec-websocket-key'] ?? ''}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  const payload = 64 * 1024;
  const header = Buffer.from([0x82, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
  header.writeUInt32BE(payload, 6);
  const frame = Buffer.concat([header, Buffer.alloc(payload, 'x')]);
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve());
    let sent = 0;
    const more = (): void => {
      while (sent < total && !socket.destroyed) {
        sent += payload;
        if (!socket.write(frame)) return void socket.once('drain', more);
      }
      resolve();
    };
    more();
  });
}

before(async () => {
  site = await startFixtureSite();
  wsServer = createServer();
  wsServer.on('upgrade', (req, socket) => {
    void floodWebSocket(req, socket, 8 * 1024 * 1024).then(() => endSocketPage());
  });
  await new Promise<void>((resolve) => wsServer.listen(0, '127.0.0.1', resolve));
  wsPort = (wsServer.address() as AddressInfo).port;
  // The document ends only once the socket's flood is over, so the render is still loading
  // while the frames arrive.
  site.route('/socket', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.write(`<!doctype html><title>socket</title><script>
      new WebSocket('ws://127.0.0.1:${wsPort}/');</script><p>flooded</p>`);
    const timer = setTimeout(() => res.end(), 10_000);
    endSocketPage = () => {
      clearTimeout(timer);
      res.end();
    };
  });
  // Style sheets: read to the end whatever they hold (an image that fails to decode is not).
  const sheets = Array.from(
    { length: SUB_RESOURCES },
    (_, i) => `<link rel="stylesheet" href="/sheet/${i}.css">`,
  );
  site.html('/many', `<!doctype html><title>many</title>${sheets.join('')}<p>many</p>`);
  const sheet = `/*${'a'.repeat(SUB_RESOURCE_BYTES - 4)}*/`;
  for (let i = 0; i < SUB_RESOURCES; i++) {
    site.route(`/sheet/${i}.css`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'no-store' });
      res.end(sheet);
    });
  }
  // 256 MiB: a render that reads it all would take minutes; a bounded one stops at once.
  site.route('/huge', (_req, res) => hugeDocument(res, 256 * 1024 * 1024));
  // 64 MiB inflated from about 64 KB: far more than the limit, little on the wire.
  site.route('/bomb', (_req, res) => gzipBomb(res, 64 * 1024 * 1024));
  service = await startService({
    allowPrivateNetworks: false,
    addressPolicy: (ip) => ip === '127.0.0.1',
    env: { MAX_BODY_BYTES: String(LIMIT) },
  });
});
after(async () => {
  await service?.close();
  await site?.close();
  wsServer?.closeAllConnections();
  await new Promise((resolve) => wsServer?.close(resolve));
});

async function render(path: string) {
  const query = `api_key=${service.apiKey}&render=true&url=${encodeURIComponent(site.url(path))}`;
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  return { status: response.status, text: await response.text() };
}

const balance = () => balanceOf(service);

async function assertTooLarge(path: string): Promise<void> {
  const before = await balance();
  const answer = await render(path);
  assert.equal(answer.status, 502, answer.text.slice(0, 300));
  assert.deepEqual(JSON.parse(answer.text), { error: TOO_LARGE });
  assert.equal(await balance(), before, 'a render over the limit is not charged');
}

describe('a render past MAX_BODY_BYTES', () => {
  it('fails with the fetch text when the document is larger than the limit, and stops reading it', async () => {
    await assertTooLarge('/huge');
    // What Chromium read before the cut, plus socket buffers: nowhere near the 256 MiB.
    assert.ok(documentSent < 32 * 1024 * 1024, `the site sent ${documentSent} bytes`);
  });

  it('fails when the sub-resources together are larger than the limit', async () => {
    await assertTooLarge('/many');
  });

  it('fails on a gzip bomb, counted as it inflates', async () => {
    await assertTooLarge('/bomb');
  });

  it('fails when a WebSocket receives more than the guard lets through on the wire', async () => {
    await assertTooLarge('/socket');
  });

  it('leaves the browser healthy: the next normal page renders', async () => {
    const answer = await render('/page');
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.match(answer.text, /Fixture page/);
  });
});
