/**
 * The guard proxy closes the gaps Playwright routing leaves (issue 4, point 5): redirect
 * hops inside a cross-site (out-of-process) iframe, a dedicated Worker's fetch, WebSockets,
 * and a host whose DNS answer changes between the route's check and the connection.
 *
 * Two fixture servers share one port: the "public" one on 127.0.0.1 and the secret one on
 * 127.0.0.2, which the substituted policy forbids. Names resolve through a test lookup, so
 * a guard that connected to a forbidden address would reach the secret server and its
 * connection counter: every test asserts that counter stays at 0.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { after, before, beforeEach, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import type { ProxyEndpoint } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../../helpers/forward-proxy.js';
import { until } from '../../../helpers/until.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let secret: FixtureSite;
let port = 0;
/** Lookups per rebinding name (`rebind*.test`). */
const rebindCalls = new Map<string, number>();
let wsOpened = 0;
let upstream: ForwardProxy;
const endpoint = (url: string): ProxyEndpoint => ({ url, type: 'datacenter', country: null });
/** Accepts WebSockets on 127.0.0.1 (the fixture site does not speak them). */
let wsServer: Server;
let wsPort = 0;

const ADDRESSES: Record<string, string> = {
  'allowed.test': '127.0.0.1',
  'frame.test': '127.0.0.1',
  'secret.test': '127.0.0.2',
};

const engine = createBrowserEngine({
  allowPrivateNetworks: false,
  guard: {
    lookup: async (host) => {
      // rebind*.test answers "allowed" once (the route's check), then the secret address.
      const calls = (rebindCalls.get(host) ?? 0) + 1;
      if (host.startsWith('rebind')) rebindCalls.set(host, calls);
      const rebound = calls === 1 ? '127.0.0.1' : '127.0.0.2';
      const address = host.startsWith('rebind') ? rebound : ADDRESSES[host];
      if (!address) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return [{ address, family: 4 }];
    },
    isAllowedAddress: (ip) => ip === '127.0.0.1',
  },
});

const at = (host: string, path: string) => `http://${host}:${port}${path}`;

/** Completes a WebSocket handshake (RFC 6455) so the page's onopen fires. */
function acceptWebSocket(req: IncomingMessage, socket: Duplex): void {
  const key = req.headers['sec-websocket-key'] ?? '';
  const accept = createHash('sha1')
    .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
    .digest('base64');
  wsOpened += 1;
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
}

before(async () => {
  site = await startFixtureSite();
  port = site.port;
  secret = await startFixtureSite({ host: '127.0.0.2', port });
  upstream = await startForwardProxy({ auth: { username: 'user', password: 'p@ss' } });
  wsServer = createServer();
  wsServer.on('upgrade', (req, socket) => acceptWebSocket(req, socket));
  await new Promise<void>((resolve) => wsServer.listen(0, '127.0.0.1', resolve));
  wsPort = (wsServer.address() as AddressInfo).port;
  const secretUrl = at('secret.test', '/secret');
  site.html(
    '/frame',
    `<p>frame</p><img src="${at('frame.test', `/redirect/to?url=${encodeURIComponent(secretUrl)}`)}">
     <script>fetch('${at('frame.test', `/redirect/to?url=${encodeURIComponent(secretUrl)}`)}').catch(() => {});</script>`,
  );
  site.html('/with-frame', `<iframe src="${at('frame.test', '/frame')}"></iframe><p>outer</p>`);
  site.route('/worker.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(`Promise.allSettled([fetch('${secretUrl}'), fetch('/worker-ok')])
      .then((r) => postMessage(r.map((x) => x.status).join(',')));`);
  });
  site.html(
    '/with-worker',
    `<p>worker page</p><script>const w = new Worker('/worker.js');
     w.onmessage = (e) => { const p = document.createElement('p'); p.id = 'done'; p.textContent = e.data; document.body.append(p); };</script>`,
  );
  site.html(
    '/with-sockets',
    `<p>sockets</p><script>
     const mark = (id) => { const p = document.createElement('p'); p.id = id; p.textContent = id; document.body.append(p); };
     const bad = new WebSocket('${at('secret.test', '/ws').replace('http', 'ws')}');
     bad.onclose = () => mark('bad-closed'); bad.onopen = () => mark('bad-open');
     const rebound = new WebSocket('ws://rebind-ws.test:${port}/ws');
     rebound.onclose = () => mark('rebound-closed'); rebound.onopen = () => mark('rebound-open');
     const good = new WebSocket('ws://allowed.test:${wsPort}/ws');
     good.onopen = () => mark('good-open');</script>`,
  );
  site.html(
    '/with-rebind',
    `<p>rebind</p><img src="${at('rebind.test', '/rebind.png')}"><img src="${at('allowed.test', '/ok.png')}">`,
  );
});

beforeEach(() => {
  site.resetCounters();
  secret.resetCounters();
  rebindCalls.clear();
  wsOpened = 0;
  upstream.resetCounters();
});

after(async () => {
  await engine.close();
  await site.close();
  await secret.close();
  await upstream.close();
  wsServer.closeAllConnections();
  await new Promise((resolve) => wsServer.close(resolve));
});

test('allowed names pass through the guard', async () => {
  const snapshot = await engine.render(renderPlan(at('allowed.test', '/page')));
  assert.equal(snapshot.status, 200);
  assert.match(snapshot.html, /Fixture page/);
  assert.equal(site.hits('/page'), 1);
});

test('(a) a redirect hop inside a cross-site iframe to a forbidden address is refused', async () => {
  const snapshot = await engine.render(
    renderPlan(at('allowed.test', '/with-frame'), { instructions: [{ delay: 300 }] }),
  );
  assert.match(snapshot.html, /outer/);
  assert.equal(site.hits('/frame'), 1);
  assert.equal(site.hits('/redirect/to'), 2, 'the frame made both first hops');
  assert.equal(secret.connections(), 0);
});

test('(b) a dedicated Worker fetch to a forbidden address is refused, an allowed one passes', async () => {
  const snapshot = await engine.render(
    renderPlan(at('allowed.test', '/with-worker'), { instructions: [{ wait: '#done' }] }),
  );
  assert.match(snapshot.html, /id="done">rejected,fulfilled</);
  assert.equal(site.hits('/worker-ok'), 1);
  assert.equal(secret.connections(), 0);
});

test('(c) a WebSocket to a forbidden address is refused, an allowed one opens', async () => {
  const snapshot = await engine.render(
    renderPlan(at('allowed.test', '/with-sockets'), {
      instructions: [{ wait: '#good-open' }, { wait: '#bad-closed' }, { wait: '#rebound-closed' }],
    }),
  );
  assert.doesNotMatch(snapshot.html, /id="bad-open"/);
  assert.match(snapshot.html, /id="bad-closed"/);
  // WebSockets are not routed through Playwright (its route adds page-visible globals,
  // issue 15): the guard alone vets them, and refused the tunnel on its own lookup.
  assert.doesNotMatch(snapshot.html, /id="rebound-open"/);
  assert.equal(rebindCalls.get('rebind-ws.test'), 1);
  assert.equal(wsOpened, 1);
  assert.equal(secret.connections(), 0);
});

test('(d) a sub-resource host that rebinds between check and connect is refused', async () => {
  await engine.render(renderPlan(at('allowed.test', '/with-rebind')));
  assert.equal(site.hits('/ok.png'), 1);
  assert.equal(site.hits('/rebind.png'), 0);
  assert.equal(secret.connections(), 0);
});

test('(d) a target that rebinds after the route check is URL_NOT_ALLOWED', async () => {
  await assert.rejects(engine.render(renderPlan(at('rebind.test', '/page'))), {
    code: 'URL_NOT_ALLOWED',
    message: 'URL is not allowed: rebind.test resolves to a non-public address',
  });
  assert.equal(secret.connections(), 0);
});

test('with an upstream proxy the guard chains to it with its credentials', async () => {
  // proxy-chain resolves names with the system resolver: the target is a literal here.
  const plan = renderPlan(site.url('/page'), {}, { proxies: [endpoint(upstream.url)] });
  const snapshot = await engine.render(plan);
  assert.equal(snapshot.status, 200);
  assert.deepEqual(
    [...new Set(upstream.log().map((r) => `${r.username}@${r.hostname}:${r.port}`))],
    [`user@127.0.0.1:${port}`],
  );
});

test('a dead upstream fails over to the next one through the guard', async () => {
  const plan = renderPlan(
    site.url('/page'),
    {},
    {
      proxies: [endpoint('http://127.0.0.1:9/'), endpoint(upstream.url)],
    },
  );
  assert.equal((await engine.render(plan)).status, 200);
  assert.ok(upstream.proxied() >= 1);
  const alone = renderPlan(site.url('/page'), {}, { proxies: [endpoint('http://127.0.0.1:9/')] });
  await assert.rejects(engine.render(alone), {
    code: 'FETCH_FAILED',
    message:
      'Failed to fetch the page: proxy http://127.0.0.1:9 failed (ERR_PROXY_CONNECTION_FAILED)',
  });
});

test('with an upstream proxy forbidden targets are refused here and never reach it', async () => {
  const proxies = [endpoint(upstream.url)];
  await assert.rejects(engine.render(renderPlan(at('secret.test', '/page'), {}, { proxies })), {
    code: 'URL_NOT_ALLOWED',
  });
  // rebind.test passes the route's check, then the guard's own lookup refuses it.
  await engine.render(renderPlan(site.url('/with-rebind'), {}, { proxies }));
  assert.equal(rebindCalls.get('rebind.test'), 2);
  const hosts = new Set(upstream.log().map((r) => r.hostname));
  assert.ok(hosts.has('127.0.0.1'));
  assert.ok(!hosts.has('rebind.test') && !hosts.has('secret.test'), [...hosts].join());
  assert.equal(secret.connections(), 0);
});

test('each open context holds one guard ticket, and closed ones give theirs back', async () => {
  // Releases finish after render() returns (reset, idle trimming): wait for them.
  await until(() => engine.status().guardTickets === engine.status().openContexts);
  assert.ok(engine.status().openContexts >= 1);
});

test('a target that refuses the guard keeps the error text of a direct render', async () => {
  // A port nothing listens on (9 and the like are refused by Chromium itself as unsafe).
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  await assert.rejects(engine.render(renderPlan(`http://allowed.test:${closedPort}/`)), {
    code: 'FETCH_FAILED',
    message: 'Failed to fetch the page: connection refused',
  });
});

test('(e) WebRTC sends no UDP to a forbidden address (only proxied WebRTC is allowed)', async () => {
  const udp = createSocket('udp4');
  let packets = 0;
  udp.on('message', () => {
    packets += 1;
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.2', resolve));
  try {
    site.html(
      '/with-rtc',
      `<p>rtc</p><script>const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.2:${udp.address().port}' }] });
       pc.createDataChannel('x');
       pc.onicegatheringstatechange = () => { if (pc.iceGatheringState !== 'complete') return;
         const p = document.createElement('p'); p.id = 'gathered'; p.textContent = 'gathered'; document.body.append(p); };
       pc.createOffer().then((offer) => pc.setLocalDescription(offer));</script>`,
    );
    await engine.render(
      renderPlan(at('allowed.test', '/with-rtc'), { instructions: [{ wait: '#gathered' }] }),
    );
    assert.equal(packets, 0);
  } finally {
    udp.close();
  }
});
