/**
 * Renders through an upstream proxy: each scrape opens its own connections to the proxy
 * (the warm page is reused, its connections out are not), with the guard proxy and
 * without it; a sticky session's renders carry one set of cookies and leave through one
 * connection to the proxy, which ends with the session.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { SESSION_IDLE_MS, SessionStore } from '../../../../src/scrape/net/sessions.js';
import type { ProxyEndpoint, ScrapeOptions } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../../helpers/forward-proxy.js';
import { startTlsSite } from '../../../helpers/tls-site.js';
import { until } from '../../../helpers/until.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let proxy: ForwardProxy;
/** Moved forward to let a session go idle without waiting 5 minutes. */
let skewMs = 0;
const sessions = new SessionStore({ now: () => Date.now() + skewMs });
/** Guarded, as in production, with the loopback site the only address allowed. */
const guarded = createBrowserEngine({
  allowPrivateNetworks: false,
  sessions,
  guard: {
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    isAllowedAddress: (ip) => ip === '127.0.0.1',
  },
});
const direct = createBrowserEngine({ allowPrivateNetworks: true, sessions });
const cookies: string[] = [];
let issued = 0;

before(async () => {
  site = await startFixtureSite();
  site.route('/shop', (req, res) => {
    cookies.push(req.headers.cookie ?? '');
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    if (!/\bsid=/.test(req.headers.cookie ?? '')) {
      issued += 1;
      headers['set-cookie'] = `sid=visitor-${issued}; Path=/`;
    }
    res.writeHead(200, headers);
    res.end('<!doctype html><title>Shop</title><p>Welcome</p>');
  });
  // Idle connections stay open however slow the machine: the test counts connections.
  proxy = await startForwardProxy({ keepAliveTimeoutMs: 600_000 });
});

after(async () => {
  await guarded.close();
  await direct.close();
  await sessions.close();
  await proxy.close();
  await site.close();
});

beforeEach(() => {
  proxy.resetCounters();
  cookies.length = 0;
});

const via: ProxyEndpoint[] = [];
const render = (
  engine: typeof guarded,
  host: string,
  options: Partial<ScrapeOptions> = {},
  isolationKey = 'account-a',
) =>
  engine.render(
    renderPlan(`http://${host}:${site.port}/shop`, options, { proxies: via, isolationKey }),
  );

describe('rotation per render', () => {
  before(() => {
    via.length = 0;
    via.push({ url: proxy.url, type: 'datacenter', country: null });
  });

  test('guarded: five renders on one warm page, each on new connections to the proxy', async () => {
    const contexts = guarded.status().contextsCreated;
    for (let i = 1; i <= 5; i += 1) {
      const before = proxy.connections();
      const snapshot = await render(guarded, '127.0.0.1');
      assert.equal(snapshot.status, 200);
      assert.ok(proxy.connections() > before, `render ${i} opened its own connection`);
    }
    assert.ok(guarded.status().contextsCreated - contexts <= 1, 'the warm page was reused');
    assert.ok(
      cookies.every((cookie) => cookie === ''),
      'nothing carried between renders',
    );
  });

  test('direct (private networks allowed): a proxied page is not reused, so neither are its connections', async () => {
    const contexts = direct.status().contextsCreated;
    for (let i = 1; i <= 3; i += 1) {
      const before = proxy.connections();
      await render(direct, '127.0.0.1');
      assert.ok(proxy.connections() > before, `render ${i} opened its own connection`);
    }
    assert.equal(direct.status().contextsCreated - contexts, 3);
  });
});

describe('sticky session renders', () => {
  test('five renders of one session carry one set of cookies; another account has its own', async () => {
    const before = issued;
    sessions.open('account-a', 'basket', 'datacenter', null, () => via);
    sessions.open('account-b', 'basket', 'datacenter', null, () => via);
    for (let i = 0; i < 5; i += 1) await render(guarded, '127.0.0.1', { sessionId: 'basket' });
    assert.equal(issued - before, 1);
    assert.deepEqual(new Set(cookies.slice(1)), new Set([`sid=visitor-${before + 1}`]));
    cookies.length = 0;
    await render(guarded, '127.0.0.1', { sessionId: 'basket' }, 'account-b');
    assert.deepEqual(cookies, ['']);
    assert.equal(issued - before, 2);
  });
});

describe('sticky session connections', () => {
  for (const [name, engine] of [
    ['guarded', guarded],
    ['direct', direct],
  ] as const) {
    test(`${name}: five renders of one session leave through one connection to the proxy, which ends with the session`, async () => {
      const sessionId = `cart-${name}`;
      sessions.open('account-c', sessionId, 'datacenter', null, () => via);
      const contexts = engine.status().contextsCreated;
      for (let i = 0; i < 5; i += 1) {
        const snapshot = await render(engine, '127.0.0.1', { sessionId }, 'account-c');
        assert.equal(snapshot.status, 200);
      }
      assert.equal(proxy.connections(), 1, 'one connection to the proxy for the five renders');
      assert.equal(proxy.proxied(), 5, 'each render went through the proxy');
      assert.equal(engine.status().contextsCreated - contexts, 1, 'one page for the session');

      // Without the session, the same account's render opens its own connection.
      await render(engine, '127.0.0.1', {}, 'account-c');
      assert.equal(proxy.connections(), 2);

      // Five idle minutes end the session and close its page, and with it the connection.
      const open = engine.status().openContexts;
      skewMs = SESSION_IDLE_MS + 1;
      try {
        sessions.sweep();
      } finally {
        skewMs = 0;
      }
      assert.equal(sessions.get('account-c', sessionId), null);
      // The page closes asynchronously; the generous bound only guards against a hang.
      await until(() => engine.status().openContexts < open, 60_000);
      sessions.open('account-c', sessionId, 'datacenter', null, () => via);
      await render(engine, '127.0.0.1', { sessionId }, 'account-c');
      assert.equal(proxy.connections(), 3, 'the new session has a connection of its own');
    });
  }
});

describe('sticky session tunnels', () => {
  test('guarded, HTTPS: renders 2 to 5 of a session reuse the tunnels of the first', async (t) => {
    const tls = await startTlsSite((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Secure shop</title><p>Welcome</p>');
    }, 600_000);
    if (!tls) return t.skip('openssl is not installed');
    try {
      sessions.open('account-d', 'tunnel', 'datacenter', null, () => via);
      const tunnels = () => proxy.log().filter((entry) => !entry.isHttp).length;
      const renderTls = (sessionId: string | null) =>
        guarded.render(
          renderPlan(
            `${tls.origin}/`,
            { sessionId, skipTlsVerification: true },
            { proxies: via, isolationKey: 'account-d' },
          ),
        );
      // Chromium may open more than one connection for its first navigation to a host
      // (a spare socket); the session keeps them all.
      assert.equal((await renderTls('tunnel')).status, 200);
      const first = tunnels();
      assert.ok(first >= 1);
      for (let i = 2; i <= 5; i += 1) {
        assert.equal((await renderTls('tunnel')).status, 200);
        assert.equal(tunnels(), first, `render ${i} opened no tunnel of its own`);
      }
      assert.equal(proxy.connections(), first);
      await renderTls(null);
      assert.ok(tunnels() > first, 'without the session, a tunnel of its own');
    } finally {
      await tls.close();
    }
  });
});
