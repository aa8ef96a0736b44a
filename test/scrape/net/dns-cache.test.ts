import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { test } from 'node:test';
import { createCachingLookup } from '../../../src/scrape/net/dns-cache.js';

function countingResolver(fail = false) {
  const calls: string[] = [];
  const lookup = async (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    if (fail) throw new Error('ENOTFOUND');
    return [{ address: '93.184.215.14', family: 4 }];
  };
  return { calls, lookup };
}

test('answers are reused within the TTL and concurrent lookups share one query', async () => {
  let clock = 0;
  const { calls, lookup } = countingResolver();
  const cached = createCachingLookup({ lookup, ttlMs: 1000, now: () => clock });
  await Promise.all([cached('a.test'), cached('A.test'), cached('a.test')]);
  clock = 999;
  await cached('a.test');
  assert.deepEqual(calls, ['a.test']);
  clock = 1000;
  await cached('a.test');
  assert.equal(calls.length, 2);
});

test('failures are not cached', async () => {
  const { calls, lookup } = countingResolver(true);
  const cached = createCachingLookup({ lookup });
  await assert.rejects(cached('x.test'));
  await assert.rejects(cached('x.test'));
  assert.equal(calls.length, 2);
});

test('the oldest names are dropped past the size limit', async () => {
  const { calls, lookup } = countingResolver();
  const cached = createCachingLookup({ lookup, maxEntries: 2 });
  await cached('a.test');
  await cached('b.test');
  await cached('c.test');
  await cached('b.test');
  await cached('a.test');
  assert.deepEqual(calls, ['a.test', 'b.test', 'c.test', 'a.test']);
});
