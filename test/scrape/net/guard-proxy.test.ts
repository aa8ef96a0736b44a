/**
 * The guard proxy on its own, with raw CONNECT and absolute-URI requests. Two fixture
 * servers share a port: 127.0.0.1 is allowed by the substituted policy, 127.0.0.2 is not,
 * so a guard that connected where it should not would show on the secret server's
 * connection counter. Upstream chaining goes through a real proxy-chain proxy on loopback.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { type IncomingMessage, request } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import {
  type GuardEvent,
  type GuardProxy,
  startGuardProxy,
} from '../../../src/scrape/net/guard-proxy.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';

let site: FixtureSite;
let secret: FixtureSite;
let upstream: ForwardProxy;
let guard: GuardProxy;
let port = 0;
/** Answers per name, consumed one per lookup (the last one repeats). */
let answers: Record<string, string[][]> = {};
const lookups: string[] = [];

async function lookup(host: string): Promise<LookupAddress[]> {
  lookups.push(host);
  const queue = answers[host];
  if (!queue) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  const next = queue.length > 1 ? queue.shift()! : queue[0]!;
  return next.map((address) => ({ address, family: 4 }));
}

function ticket(upstreamUrl: string | null = null) {
  const events: GuardEvent[] = [];
  const t = guard.register({ upstream: upstreamUrl, onEvent: (e) => events.push(e) });
  const auth = `Basic ${Buffer.from(`${t.username}:${t.password}`).toString('base64')}`;
  return { events, auth, release: t.release };
}

/** CONNECT through the guard; on 200, a GET for `path` through the tunnel. */
function tunnelGet(authority: string, auth: string | null, path = '/page') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: guard.port,
      method: 'CONNECT',
      path: authority,
      headers: auth ? { 'proxy-authorization': auth } : {},
    });
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode ?? 0, body: '' });
      }
      let body = '';
      socket.on('data', (chunk) => {
        body += chunk;
      });
      socket.on('end', () => resolve({ status: 200, body }));
      socket.on('error', reject);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.once('error', reject);
    req.end();
  });
}

/** An absolute-URI GET through the guard: the status, or 'closed' for a network error. */
function plainGet(url: string, auth: string | null) {
  return new Promise<number | 'closed'>((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port: guard.port,
      path: url,
      headers: { host: new URL(url).host, ...(auth ? { 'proxy-authorization': auth } : {}) },
      agent: false,
    });
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', () => resolve('closed'));
    req.end();
  });
}

before(async () => {
  site = await startFixtureSite();
  port = site.port;
  secret = await startFixtureSite({ host: '127.0.0.2', port });
  upstream = await startForwardProxy({ auth: { username: 'up', password: 'p@ss' } });
  guard = await startGuardProxy({
    guard: { lookup, isAllowedAddress: (ip) => ip === '127.0.0.1' },
    refuseHost: (host) => host === 'update.googleapis.com',
  });
});

beforeEach(() => {
  answers = { 'ok.test': [['127.0.0.1']], 'secret.test': [['127.0.0.2']] };
  lookups.length = 0;
  site.resetCounters();
  secret.resetCounters();
  upstream.resetCounters();
});

after(async () => {
  await guard.close();
  await upstream.close();
  await site.close();
  await secret.close();
});

test('without a valid ticket the guard answers 407 and connects nowhere', async () => {
  const t = ticket();
  assert.equal((await tunnelGet(`ok.test:${port}`, null)).status, 407);
  assert.equal(await plainGet(`http://ok.test:${port}/page`, 'Basic eDp5'), 407);
  t.release();
  assert.equal((await tunnelGet(`ok.test:${port}`, t.auth)).status, 407);
  assert.equal(site.connections(), 0);
});

test('allowed targets pass, by CONNECT and as plain requests', async () => {
  const { auth } = ticket();
  const tunnelled = await tunnelGet(`ok.test:${port}`, auth);
  assert.equal(tunnelled.status, 200);
  assert.match(tunnelled.body, /Fixture page/);
  assert.equal(await plainGet(`http://ok.test:${port}/page`, auth), 200);
  assert.equal(await plainGet(`http://127.0.0.1:${port}/text`, auth), 200);
  assert.equal(site.hits('/page'), 2);
});

test('a forbidden name or IP literal is refused: 403 to CONNECT, a closed connection to plain', async () => {
  const { auth, events } = ticket();
  assert.equal((await tunnelGet(`secret.test:${port}`, auth)).status, 403);
  assert.equal((await tunnelGet(`127.0.0.2:${port}`, auth)).status, 403);
  assert.equal((await tunnelGet(`[::ffff:127.0.0.2]:${port}`, auth)).status, 403);
  assert.equal(await plainGet(`http://secret.test:${port}/page`, auth), 'closed');
  assert.equal(await plainGet(`http://127.0.0.2:${port}/page`, auth), 'closed');
  assert.equal(secret.connections(), 0);
  assert.deepEqual(
    events.map((e) => (e.kind === 'refused' ? e.reason : e.kind)),
    ['non-public', 'non-public', 'non-public', 'non-public', 'non-public'],
  );
});

test('a host with any forbidden address is refused; an unknown one is unresolved', async () => {
  answers['mixed.test'] = [['127.0.0.1', '127.0.0.2']];
  const { auth, events } = ticket();
  assert.equal((await tunnelGet(`mixed.test:${port}`, auth)).status, 403);
  assert.equal((await tunnelGet(`nowhere.test:${port}`, auth)).status, 403);
  assert.deepEqual(events, [
    { kind: 'refused', host: 'mixed.test', reason: 'non-public' },
    { kind: 'refused', host: 'nowhere.test', reason: 'unresolved' },
  ]);
  assert.equal(site.connections() + secret.connections(), 0);
});

test('the connection goes to the address that was checked (no second resolution)', async () => {
  // First answer allowed, every later one forbidden: one lookup per connection, pinned.
  answers['rebind.test'] = [['127.0.0.1'], ['127.0.0.2']];
  const { auth } = ticket();
  assert.equal((await tunnelGet(`rebind.test:${port}`, auth)).status, 200);
  assert.deepEqual(lookups, ['rebind.test']);
  assert.equal(site.hits('/page'), 1);
  assert.equal((await tunnelGet(`rebind.test:${port}`, auth)).status, 403);
  assert.equal(await plainGet(`http://rebind.test:${port}/page`, auth), 'closed');
  assert.equal(secret.connections(), 0);
});

test("Chromium's service hosts are refused before any lookup", async () => {
  const { auth, events } = ticket();
  assert.equal((await tunnelGet('update.googleapis.com:443', auth)).status, 403);
  assert.deepEqual(lookups, []);
  assert.deepEqual(events, [
    { kind: 'refused', host: 'update.googleapis.com', reason: 'service-host' },
  ]);
});

test('with an upstream, traffic is chained with its credentials and the target checked here', async () => {
  const { auth, events } = ticket(upstream.url);
  // The upstream resolves names itself (the system resolver): allowed targets are literals.
  const tunnelled = await tunnelGet(`127.0.0.1:${port}`, auth);
  assert.equal(tunnelled.status, 200);
  assert.match(tunnelled.body, /Fixture page/);
  assert.equal(await plainGet(`http://127.0.0.1:${port}/page`, auth), 200);
  assert.deepEqual(
    upstream.log().map((r) => `${r.username}@${r.hostname}:${r.isHttp}`),
    ['up@127.0.0.1:false', 'up@127.0.0.1:true'],
  );
  assert.equal(site.hits('/page'), 2);
  assert.equal((await tunnelGet(`secret.test:${port}`, auth)).status, 403);
  assert.equal(await plainGet(`http://127.0.0.2:${port}/page`, auth), 'closed');
  assert.equal(upstream.proxied(), 2, 'refused targets never reach the upstream');
  assert.equal(events.length, 2);
});

test('an upstream that refuses connections is reported as an upstream failure', async () => {
  const { auth, events } = ticket('http://u:p@127.0.0.1:9');
  assert.equal((await tunnelGet(`ok.test:${port}`, auth)).status, 502);
  assert.equal(await plainGet(`http://ok.test:${port}/page`, auth), 'closed');
  assert.deepEqual(events, [
    { kind: 'upstream-failed', host: 'ok.test', code: 'ECONNREFUSED' },
    { kind: 'upstream-failed', host: 'ok.test', code: 'ECONNREFUSED' },
  ]);
});

test('a target that refuses connections is reported as a target failure', async () => {
  answers['closed.test'] = [['127.0.0.1']];
  const { auth, events } = ticket();
  assert.equal((await tunnelGet('closed.test:9', auth)).status, 502);
  assert.deepEqual(events, [{ kind: 'target-failed', host: 'closed.test', code: 'ECONNREFUSED' }]);
});

/** Bytes of an absolute-URI GET's body received through the guard before it ended or was cut. */
function plainBodyBytes(url: string, auth: string) {
  return new Promise<number>((resolve) => {
    let received = 0;
    const req = request({
      host: '127.0.0.1',
      port: guard.port,
      path: url,
      headers: { host: new URL(url).host, 'proxy-authorization': auth },
      agent: false,
    });
    req.once('response', (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      res.once('close', () => resolve(received));
      res.on('error', () => {});
    });
    req.once('error', () => resolve(received));
    req.end();
  });
}

test('a ticket past its byte bound has every connection cut, until it is recounted', async () => {
  const MiB = 1024 * 1024;
  const events: GuardEvent[] = [];
  const t = guard.register({ upstream: null, maxBytes: MiB, onEvent: (e) => events.push(e) });
  const auth = `Basic ${Buffer.from(`${t.username}:${t.password}`).toString('base64')}`;
  const cut = await plainBodyBytes(`http://ok.test:${port}/huge?mb=8`, auth);
  assert.ok(cut < 4 * MiB, `${cut} bytes came through`);
  assert.deepEqual(
    events.map((e) => e.kind),
    ['too-large'],
  );
  // Past the bound a new connection is cut at its first bytes, and reported no more.
  assert.equal(await plainBodyBytes(`http://ok.test:${port}/page`, auth), 0);
  assert.equal(events.length, 1);
  t.recount();
  assert.ok((await plainBodyBytes(`http://ok.test:${port}/page`, auth)) > 0);
  t.release();
});
