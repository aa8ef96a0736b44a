/**
 * Rotation per request and sticky sessions, render=false, through a real forward proxy on
 * loopback: every scrape through a proxy opens its own connection (its own CONNECT tunnel)
 * to it; the scrapes of one session share one connection and one set of cookies, for their
 * account only, until the session has been idle for 5 minutes.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { createFetchEngine, type FetchEngine } from '../../../src/scrape/engines/fetch-engine.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import { createProxyPools } from '../../../src/scrape/net/proxy-pools.js';
import { SESSION_IDLE_MS, SessionStore } from '../../../src/scrape/net/sessions.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../../../src/scrape/params/index.js';
import { createPlanner, type Planner } from '../../../src/scrape/plan.js';
import { startRun } from '../../../src/scrape/scrape-use-case.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';

let site: FixtureSite;
let proxy: ForwardProxy;
let clock = Date.now();
let sessions: SessionStore;
let planner: Planner;
let engine: FetchEngine;
/** The Cookie header of each request the site saw, in order. */
const cookies: string[] = [];
let issued = 0;

before(async () => {
  site = await startFixtureSite();
  site.route('/visit', (req, res) => {
    cookies.push(req.headers.cookie ?? '');
    const headers: Record<string, string> = { 'content-type': 'text/html' };
    // A visitor without our cookie gets a new one, as a site's session cookie.
    if (!/\bsid=/.test(req.headers.cookie ?? '')) {
      issued += 1;
      headers['set-cookie'] = `sid=visitor-${issued}; Path=/; HttpOnly`;
    }
    res.writeHead(200, headers);
    res.end('<!doctype html><title>Visit</title><p>Welcome back</p>');
  });
  proxy = await startForwardProxy();
  sessions = new SessionStore({ now: () => clock });
  const pools = createProxyPools([{ url: proxy.url, type: 'datacenter', country: null }]);
  planner = createPlanner(pools, { allowPrivate: true }, DEFAULTS.pricing, sessions);
  engine = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 }),
    sessions,
  });
});

after(async () => {
  await engine.close();
  await sessions.close();
  await proxy.close();
  await site.close();
});

beforeEach(() => {
  proxy.resetCounters();
  cookies.length = 0;
});

async function scrape(accountId: string, sessionId: string | null = null, skipTls = false) {
  const plan = planner.plan({
    requestId: `r-${Math.random()}`,
    accountId,
    concurrencyLimit: 10,
    workflowId: null,
    options: {
      ...DEFAULT_SCRAPE_OPTIONS,
      url: site.url('/visit'),
      sessionId,
      skipTlsVerification: skipTls,
      timeoutMs: 10_000,
    },
    createdAt: clock,
  });
  const { run, dispose } = startRun(plan);
  try {
    return await engine.fetch({ ...run, isolationKey: accountId });
  } finally {
    dispose();
  }
}

describe('rotation', () => {
  test('20 scrapes of one target through a proxy open 20 connections, each its own tunnel', async () => {
    for (let i = 0; i < 20; i += 1) {
      const page = await scrape('account-a');
      assert.equal(page.status, 200);
      assert.equal(page.via?.url, proxy.url);
    }
    assert.equal(proxy.connections(), 20);
    assert.equal(proxy.log().length, 20);
    assert.ok(
      proxy.log().every((entry) => !entry.isHttp),
      'each one a CONNECT tunnel',
    );
    // Nothing carried over: each scrape was a new visitor.
    assert.ok(cookies.every((cookie) => cookie === ''));
  });

  test('two accounts never share a connection to the proxy', async () => {
    await Promise.all([scrape('account-a'), scrape('account-b'), scrape('account-a')]);
    assert.equal(proxy.connections(), 3);
  });
});

describe('sticky sessions', () => {
  test('20 scrapes of one session use one connection and one set of cookies', async () => {
    const before = issued;
    for (let i = 0; i < 20; i += 1) await scrape('account-a', 'cart-1');
    assert.equal(proxy.connections(), 1);
    assert.equal(proxy.log().length, 1, 'one CONNECT tunnel');
    assert.equal(issued - before, 1, 'one cookie issued');
    assert.equal(cookies[0], '');
    assert.deepEqual(new Set(cookies.slice(1)), new Set([`sid=visitor-${before + 1}`]));
  });

  test("a session that skips certificate checks (Firecrawl v2's default) keeps its connection too", async () => {
    for (let i = 0; i < 5; i += 1) await scrape('account-a', 'lenient', true);
    assert.equal(proxy.connections(), 1);
  });

  test('the same session name in another account is another session', async () => {
    const before = issued;
    await scrape('account-a', 'shared-name');
    await scrape('account-b', 'shared-name');
    await scrape('account-a', 'shared-name');
    await scrape('account-b', 'shared-name');
    assert.equal(proxy.connections(), 2);
    assert.equal(issued - before, 2);
    assert.deepEqual(cookies, ['', '', `sid=visitor-${before + 1}`, `sid=visitor-${before + 2}`]);
  });

  test('a session idle for more than 5 minutes ends: a new connection, new cookies', async () => {
    const before = issued;
    await scrape('account-a', 'idle');
    clock += SESSION_IDLE_MS - 1_000;
    await scrape('account-a', 'idle');
    assert.equal(proxy.connections(), 1, 'still the session within 5 minutes of its last use');
    clock += SESSION_IDLE_MS + 1;
    await scrape('account-a', 'idle');
    assert.equal(proxy.connections(), 2);
    assert.equal(issued - before, 2);
    assert.equal(cookies.at(-1), '');
  });
});
