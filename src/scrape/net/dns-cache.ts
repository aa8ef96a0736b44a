/**
 * A short-lived DNS cache for the SSRF guard. A rendered page makes hundreds of
 * sub-requests to a handful of hosts, each checked (contract 2.17); the OS resolver is
 * called through libuv's small thread pool, so asking it every time queues behind file I/O.
 * Only answers are cached (failures are retried), concurrent lookups of one name share
 * one query, and the TTL is short so that a changed record is seen soon.
 */
import type { LookupAddress } from 'node:dns';
import { type LookupFn, systemLookup } from './ssrf-guard.js';

export interface CachingLookupOptions {
  /** The resolver behind the cache. Default: the operating system's. */
  lookup?: LookupFn;
  /** How long an answer is reused. Default 30 000 ms. */
  ttlMs?: number;
  /** Names kept at most; the oldest go first. Default 1000. */
  maxEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

export function createCachingLookup(options: CachingLookupOptions = {}): LookupFn {
  const lookup = options.lookup ?? systemLookup;
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 1000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { expires: number; answer: Promise<LookupAddress[]> }>();

  return (hostname) => {
    const key = hostname.toLowerCase();
    const hit = cache.get(key);
    if (hit && hit.expires > now()) return hit.answer;
    const answer = lookup(hostname);
    cache.delete(key);
    cache.set(key, { expires: now() + ttlMs, answer });
    answer.catch(() => {
      if (cache.get(key)?.answer === answer) cache.delete(key);
    });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    return answer;
  };
}
