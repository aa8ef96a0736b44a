/**
 * Proxy health: a proxy that fails repeatedly is benched for a cooldown, left out of the
 * rotation meanwhile, and back on its own afterwards; the pools' labels never hold
 * credentials. Through a real fetch engine against a proxy port that refuses connections.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createFetchEngine } from '../../../src/scrape/engines/fetch-engine.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import { createProxyHealth } from '../../../src/scrape/net/proxy-health.js';
import { createProxyPools } from '../../../src/scrape/net/proxy-pools.js';
import { DEFAULT_SCRAPE_OPTIONS } from '../../../src/scrape/params/index.js';
import type { ProxyEndpoint, ScrapeRun } from '../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';
import { freePort } from '../../helpers/free-port.js';

let site: FixtureSite;
let good: ForwardProxy;
let deadUrl: string;

before(async () => {
  site = await startFixtureSite();
  site.html('/', '<!doctype html><p>through a proxy</p>');
  good = await startForwardProxy();
  deadUrl = `http://user:hunter2@127.0.0.1:${await freePort()}`;
});

after(async () => {
  await good.close();
  await site.close();
});

function run(proxies: readonly ProxyEndpoint[]): ScrapeRun {
  return {
    options: { ...DEFAULT_SCRAPE_OPTIONS, url: site.url('/'), timeoutMs: 10_000 },
    engine: 'fetch',
    output: 'html',
    block: null,
    proxies,
    isolationKey: 'acct',
    deadline: Date.now() + 10_000,
    signal: new AbortController().signal,
  };
}

test('three failures in a row bench a proxy; it is skipped, then returns after the cooldown', async () => {
  let clock = 1_000_000;
  const health = createProxyHealth({ failuresToBench: 3, benchMs: 60_000, now: () => clock });
  const pools = createProxyPools(
    [
      { url: deadUrl, type: 'datacenter', country: null },
      { url: good.url, type: 'datacenter', country: null },
    ],
    health,
  );
  const engine = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 }),
    health,
  });
  try {
    const dead = pools.all[0]!;
    // Pick the dead proxy first three times: each scrape fails over to the good one.
    for (let i = 0; i < 3; i += 1) {
      const proxies = pools.select('datacenter', null);
      const ordered = proxies[0]!.url === deadUrl ? proxies : pools.select('datacenter', null);
      assert.equal(ordered[0]!.url, deadUrl);
      const page = await engine.fetch(run(ordered));
      assert.equal(page.via?.url, good.url, 'failed over to the next proxy');
    }
    const stats = health.stats().find((s) => s.label === dead.label)!;
    assert.equal(stats.state, 'benched');
    assert.equal(stats.failures, 3);
    assert.equal(stats.label, `datacenter/any/127.0.0.1:${new URL(deadUrl).port}`);
    assert.doesNotMatch(JSON.stringify(health.stats()), /hunter2|user:/);
    // Benched: every selection leaves it out.
    for (let i = 0; i < 4; i += 1) {
      assert.deepEqual(
        pools.select('datacenter', null).map((p) => p.url),
        [good.url],
      );
    }
    // The cooldown over, it is back in the rotation without anyone doing anything.
    clock += 60_001;
    assert.equal(health.stats().find((s) => s.label === dead.label)!.state, 'active');
    const picks = [pools.select('datacenter', null), pools.select('datacenter', null)];
    assert.ok(
      picks.some((p) => p[0]!.url === deadUrl),
      'back in the rotation',
    );
    // Still dead: its first failure benches it again at once.
    const again = picks.find((p) => p[0]!.url === deadUrl)!;
    await engine.fetch(run(again));
    assert.equal(health.stats().find((s) => s.label === dead.label)!.state, 'benched');
  } finally {
    await engine.close();
  }
});

test('a success clears the count; every proxy benched leaves the pool as it is', () => {
  let clock = 0;
  const health = createProxyHealth({ failuresToBench: 2, benchMs: 10, now: () => clock });
  const a: ProxyEndpoint = { url: 'http://a:1', type: 'datacenter', country: null };
  const pools = createProxyPools([a], health);
  const proxy = pools.all[0]!;
  health.record(proxy, 'failed');
  health.record(proxy, 'ok');
  health.record(proxy, 'failed');
  assert.equal(health.stats()[0]!.state, 'active');
  health.record(proxy, 'failed');
  assert.equal(health.stats()[0]!.state, 'benched');
  assert.deepEqual(
    pools.select('datacenter', null).map((p) => p.url),
    ['http://a:1'],
  );
  health.record(proxy, 'blocked');
  assert.deepEqual(health.stats()[0], {
    label: 'datacenter/any/a:1',
    type: 'datacenter',
    country: null,
    state: 'active',
    benchedUntil: null,
    requests: 5,
    failures: 3,
    blocks: 1,
  });
  clock += 1;
});

test('two entries of one gateway get distinct labels', () => {
  const pools = createProxyPools([
    { url: 'http://u1:p@gw:8000', type: 'residential', country: 'DE' },
    { url: 'http://u2:p@gw:8000', type: 'residential', country: 'DE' },
  ]);
  assert.deepEqual(
    pools.all.map((p) => p.label),
    ['residential/DE/gw:8000', 'residential/DE/gw:8000#2'],
  );
});
