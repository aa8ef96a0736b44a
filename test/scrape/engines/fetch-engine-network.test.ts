import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, test } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { type AppError, isAppError } from '../../../src/errors.js';
import { createFetchEngine, type FetchEngine } from '../../../src/scrape/engines/fetch-engine.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import type { ProxyEndpoint } from '../../../src/scrape/types.js';
import { type FixtureSite, PLAIN_PAGE, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';
import { fetchPlan } from './fetch-plan.js';

const { maxBodyBytes } = DEFAULTS;

// Two loopback sites on the same port: 127.0.0.1 plays a public host and 127.0.0.2 an
// internal one (a substitute address policy tells them apart; traffic stays on loopback).
let site: FixtureSite;
let internal: FixtureSite;
let proxy: ForwardProxy;
let authProxy: ForwardProxy;
let engine: FetchEngine;
const onlyFirstLoopbackIsPublic = (ip: string) => ip === '127.0.0.1';

before(async () => {
  site = await startFixtureSite();
  internal = await startFixtureSite({ host: '127.0.0.2', port: site.port });
  proxy = await startForwardProxy();
  authProxy = await startForwardProxy({ auth: { username: 'scraper', password: 's3cr:t@' } });
  engine = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes }),
  });
});
after(async () => {
  await engine.close();
  await Promise.all([site.close(), internal.close(), proxy.close(), authProxy.close()]);
});

const via = (...urls: string[]): ProxyEndpoint[] =>
  urls.map((url) => ({ url, type: 'datacenter', country: null }));

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

/** A free port with nothing listening: a dead proxy. */
async function deadPort(): Promise<number> {
  const gone = await startFixtureSite();
  await gone.close();
  return gone.port;
}

test('a scrape through a proxy goes through it', async () => {
  proxy.resetCounters();
  const page = await engine.fetch(fetchPlan(site.url('/page'), { proxies: via(proxy.url) }));
  assert.equal(page.html, PLAIN_PAGE);
  assert.equal(proxy.proxied(), 1);
  assert.deepEqual(proxy.log()[0], {
    hostname: '127.0.0.1',
    port: site.port,
    isHttp: false,
    username: '',
  });
});

test('proxy credentials come from the proxy URL, special characters included', async () => {
  authProxy.resetCounters();
  const page = await engine.fetch(fetchPlan(site.url('/json'), { proxies: via(authProxy.url) }));
  assert.equal(page.html, '{"ok":true,"n":1}');
  assert.equal(authProxy.proxied(), 1);
  assert.equal(authProxy.rejected(), 0);
  assert.equal(authProxy.log()[0]?.username, 'scraper');
});

// A fresh live proxy per failover test: a tunnel opened earlier is kept alive and reused,
// so an old proxy would not see a new CONNECT.
test('a dead proxy fails over to the second one', async () => {
  const live = await startForwardProxy();
  try {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const page = await engine.fetch(fetchPlan(site.url('/page'), { proxies: via(dead, live.url) }));
    assert.equal(page.html, PLAIN_PAGE);
    assert.equal(live.proxied(), 1);
  } finally {
    await live.close();
  }
});

test('a proxy refusing our credentials fails over to the second one', async () => {
  const live = await startForwardProxy();
  try {
    authProxy.resetCounters();
    const wrong = authProxy.url.replace('s3cr', 'nope');
    const page = await engine.fetch(
      fetchPlan(site.url('/page'), { proxies: via(wrong, live.url) }),
    );
    assert.equal(page.status, 200);
    assert.equal(authProxy.rejected(), 1);
    assert.equal(live.proxied(), 1);
  } finally {
    await live.close();
  }
});

test('a dead proxy with no failover is a 502', async () => {
  const port = await deadPort();
  const error = await failure(
    engine.fetch(fetchPlan(site.url('/page'), { proxies: via(`http://127.0.0.1:${port}`) })),
  );
  assert.equal(error.status, 502);
  assert.equal(
    error.message,
    `Failed to fetch the page: proxy 127.0.0.1:${port} failed: connection refused by 127.0.0.1:${port}`,
  );
});

test('a proxy refusing our credentials with no failover is a 502 without the credentials', async () => {
  const wrong = authProxy.url.replace('s3cr', 'nope');
  const error = await failure(engine.fetch(fetchPlan(site.url('/page'), { proxies: via(wrong) })));
  assert.equal(
    error.message,
    `Failed to fetch the page: proxy 127.0.0.1:${authProxy.port} answered 407`,
  );
});

test('a loopback target is refused before any connection when private networks are not allowed', async () => {
  const strict = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: false, maxBodyBytes }),
  });
  try {
    site.resetCounters();
    for (const [url, host] of [
      [site.url('/page'), '127.0.0.1'],
      [`http://localhost:${site.port}/page`, 'localhost'],
      [`http://127.1:${site.port}/page`, '127.0.0.1'],
      [`http://0x7f000001:${site.port}/page`, '127.0.0.1'],
      [`http://[::ffff:127.0.0.1]:${site.port}/page`, '::ffff:7f00:1'],
    ] as const) {
      const error = await failure(strict.fetch(fetchPlan(url)));
      assert.equal(error.status, 400);
      assert.equal(error.message, `URL is not allowed: ${host} resolves to a non-public address`);
    }
    assert.equal(site.connections(), 0);
  } finally {
    await strict.close();
  }
});

test('a loopback target is refused before the proxy is asked', async () => {
  const strict = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: false, maxBodyBytes }),
  });
  try {
    proxy.resetCounters();
    const error = await failure(
      strict.fetch(fetchPlan(site.url('/page'), { proxies: via(proxy.url) })),
    );
    assert.equal(error.code, 'URL_NOT_ALLOWED');
    assert.equal(proxy.proxied(), 0);
  } finally {
    await strict.close();
  }
});

test('a redirect to a non-public address is refused at the hop', async () => {
  const strict = createFetchEngine({
    http: createHttpClient({
      allowPrivateNetworks: false,
      maxBodyBytes,
      isAllowedAddress: onlyFirstLoopbackIsPublic,
    }),
  });
  try {
    site.resetCounters();
    internal.resetCounters();
    const target = encodeURIComponent(internal.url('/page'));
    const error = await failure(strict.fetch(fetchPlan(site.url(`/redirect/to?url=${target}`))));
    assert.equal(error.message, 'URL is not allowed: 127.0.0.2 resolves to a non-public address');
    assert.equal(site.hits('/redirect/to'), 1);
    assert.equal(internal.connections(), 0);
  } finally {
    await strict.close();
  }
});

test('the same redirect is followed when the policy allows the address (control)', async () => {
  const lax = createFetchEngine({
    http: createHttpClient({
      allowPrivateNetworks: false,
      maxBodyBytes,
      isAllowedAddress: (ip) => ip.startsWith('127.'),
    }),
  });
  try {
    internal.resetCounters();
    const target = encodeURIComponent(internal.url('/page'));
    const page = await lax.fetch(fetchPlan(site.url(`/redirect/to?url=${target}`)));
    assert.equal(page.finalUrl, internal.url('/page'));
    assert.equal(internal.hits('/page'), 1);
  } finally {
    await lax.close();
  }
});

test('a DNS answer that changes after the check cannot reach the internal address', async () => {
  // First answer (the explicit check) is "public", later ones (the socket's) are internal.
  let calls = 0;
  const rebinding = async (): Promise<LookupAddress[]> => {
    calls += 1;
    return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
  };
  const strict = createFetchEngine({
    http: createHttpClient({
      allowPrivateNetworks: false,
      maxBodyBytes,
      isAllowedAddress: onlyFirstLoopbackIsPublic,
      lookup: rebinding,
    }),
  });
  try {
    site.resetCounters();
    internal.resetCounters();
    const error = await failure(strict.fetch(fetchPlan(`http://rebind.test:${site.port}/page`)));
    assert.equal(error.message, 'URL is not allowed: rebind.test resolves to a non-public address');
    assert.ok(calls >= 2);
    assert.equal(internal.connections(), 0);
    assert.equal(site.connections(), 0);
  } finally {
    await strict.close();
  }
});
