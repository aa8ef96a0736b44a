import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import { createProxyPools, parseProxiesFile } from '../../../src/scrape/net/proxy-pools.js';
import type { ProxyEndpoint } from '../../../src/scrape/types.js';

const p = (
  url: string,
  type: ProxyEndpoint['type'],
  country: string | null = null,
): ProxyEndpoint => ({
  url,
  type,
  country,
});

test('a proxies file defaults type to datacenter and upper-cases countries', () => {
  const parsed = parseProxiesFile(
    '[{"url":"http://u:p@127.0.0.1:8000"},{"url":"https://127.0.0.1:8001","type":"residential","country":"de"}]',
  );
  assert.deepEqual(parsed, [
    p('http://u:p@127.0.0.1:8000', 'datacenter'),
    p('https://127.0.0.1:8001', 'residential', 'DE'),
  ]);
});

test('a bad proxies file names the bad entry', () => {
  const cases: Array<[string, RegExp]> = [
    ['not json', /not valid JSON/],
    ['{"url":"http://x:1"}', /JSON array/],
    ['[{"url":"http://x:1"},{"type":"mobile"}]', /entry 1: url is required/],
    ['[{"url":"nope"}]', /entry 0: url is not a valid URL/],
    ['[{"url":"ftp://x:1"}]', /entry 0: url must be http/],
    [
      '[{"url":"http://x:1","type":"satellite"}]',
      /entry 0: type must be one of datacenter, residential, mobile/,
    ],
    ['[{"url":"http://x:1","country":"DEU"}]', /entry 0: country must be/],
    ['[{"url":"http://x:1","region":"eu"}]', /entry 0: unknown field "region"/],
    ['[42]', /entry 0: must be an object/],
  ];
  for (const [json, message] of cases) assert.throws(() => parseProxiesFile(json), message, json);
});

test('datacenter without a country and without a datacenter pool goes direct', () => {
  const pools = createProxyPools([p('http://r:1', 'residential')]);
  assert.deepEqual(pools.select('datacenter', null), []);
  assert.equal(pools.has('datacenter', null), true);
});

test('no matching proxy is PROXY_UNAVAILABLE with the contract text', () => {
  const pools = createProxyPools([p('http://r:1', 'residential', 'DE')]);
  const expect = (fn: () => unknown, message: string) =>
    assert.throws(
      fn,
      (e: unknown) => isAppError(e) && e.code === 'PROXY_UNAVAILABLE' && e.message === message,
    );
  expect(() => pools.select('mobile', null), 'Proxy unavailable: no mobile proxy');
  expect(
    () => pools.select('residential', 'fr'),
    'Proxy unavailable: no residential proxy for country FR',
  );
  expect(
    () => pools.select('datacenter', 'US'),
    'Proxy unavailable: no datacenter proxy for country US',
  );
  assert.equal(pools.has('mobile', null), false);
  assert.equal(pools.has('residential', 'FR'), false);
});

test('a proxy with a country serves its country and requests naming none; one without serves only the latter', () => {
  const pools = createProxyPools([
    p('http://de:1', 'residential', 'DE'),
    p('http://any:1', 'residential'),
  ]);
  assert.deepEqual(
    pools.select('residential', 'de').map((e) => e.url),
    ['http://de:1'],
  );
  const none = new Set(
    [...pools.select('residential', null), ...pools.select('residential', null)].map((e) => e.url),
  );
  assert.deepEqual([...none].sort(), ['http://any:1', 'http://de:1']);
});

test("requests rotate round-robin and carry the pool's next proxies (failover, block retries)", () => {
  const pools = createProxyPools([
    p('http://a:1', 'datacenter'),
    p('http://b:1', 'datacenter'),
    p('http://c:1', 'datacenter'),
  ]);
  const picks = Array.from({ length: 4 }, () => pools.select('datacenter', null).map((e) => e.url));
  assert.deepEqual(picks, [
    ['http://a:1', 'http://b:1', 'http://c:1'],
    ['http://b:1', 'http://c:1', 'http://a:1'],
    ['http://c:1', 'http://a:1', 'http://b:1'],
    ['http://a:1', 'http://b:1', 'http://c:1'],
  ]);
});

test('a single matching proxy has no failover', () => {
  const pools = createProxyPools([p('http://only:1', 'mobile', 'JP')]);
  assert.deepEqual(
    pools.select('mobile', 'JP').map((e) => e.url),
    ['http://only:1'],
  );
});
