/** Proxies per context with failover, and recovery from a killed Chromium. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import type { ProxyEndpoint } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../../helpers/forward-proxy.js';
import { until } from '../../../helpers/until.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let proxy: ForwardProxy;
let other: ForwardProxy;
const engine = createBrowserEngine({ allowPrivateNetworks: true });

const endpoint = (url: string): ProxyEndpoint => ({ url, type: 'datacenter', country: null });

before(async () => {
  site = await startFixtureSite();
  proxy = await startForwardProxy({ auth: { username: 'user', password: 'p@ss' } });
  other = await startForwardProxy();
  site.html('/hang', '<p>hanging</p><img src="/slow?ms=30000">');
});

after(async () => {
  await engine.close();
  await proxy.close();
  await other.close();
  await site.close();
});

test('a render goes through the plan proxy with its credentials', async () => {
  proxy.resetCounters();
  const snapshot = await engine.render(
    renderPlan(site.url('/page'), {}, { proxies: [endpoint(proxy.url)] }),
  );
  assert.equal(snapshot.status, 200);
  assert.ok(proxy.proxied() >= 1);
  assert.equal(proxy.log()[0]?.username, 'user');
  // Only the target went through the proxy: none of Chromium's own Google calls.
  assert.deepEqual([...new Set(proxy.log().map((r) => r.hostname))], ['127.0.0.1']);
});

test('concurrent renders through different proxies share one browser', async () => {
  proxy.resetCounters();
  other.resetCounters();
  await Promise.all([
    engine.render(renderPlan(site.url('/page'), {}, { proxies: [endpoint(proxy.url)] })),
    engine.render(renderPlan(site.url('/page'), {}, { proxies: [endpoint(other.url)] })),
  ]);
  assert.ok(proxy.proxied() >= 1);
  assert.ok(other.proxied() >= 1);
  assert.equal(engine.status().browsersUp, 1);
});

test('a proxy that refuses connections is retried once on the next proxy', async () => {
  other.resetCounters();
  const dead = endpoint('http://127.0.0.1:9/');
  const snapshot = await engine.render(
    renderPlan(site.url('/page'), {}, { proxies: [dead, endpoint(other.url)] }),
  );
  assert.equal(snapshot.status, 200);
  assert.ok(other.proxied() >= 1);
});

test('killing Chromium fails the request it served, and the next one succeeds on a new browser', async () => {
  await engine.render(renderPlan(site.url('/page')));
  const [pid] = engine.status().pids;
  assert.ok(pid);
  const slowBefore = site.hits('/slow');
  const pending = engine.render(renderPlan(site.url('/hang'), { timeoutMs: 20_000 }));
  // Kill only once the page is certainly loading on this browser (its image is being
  // fetched): a fixed delay raced the render onto the relaunched browser on a slow machine.
  await until(() => site.hits('/slow') > slowBefore, 10_000);
  process.kill(pid, 'SIGKILL');
  await assert.rejects(pending, { code: 'BROWSER_FAILED', status: 502 });
  const next = await engine.render(renderPlan(site.url('/page')));
  assert.equal(next.status, 200);
  const [relaunched] = engine.status().pids;
  assert.ok(relaunched, 'no browser after the relaunch');
  assert.notEqual(relaunched, pid);
  assert.equal(engine.status().crashes, 1);
});
