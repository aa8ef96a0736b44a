/** Retry-After as a crawl reads it (pure): delay-seconds, an HTTP date, the cap, junk. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../../src/jobs/crawls/crawl-frontier.js';

const now = Date.parse('2026-01-01T00:00:00Z');

test('seconds and HTTP dates become a wait from now', () => {
  assert.equal(retryAfterMs('3', now), 3000);
  assert.equal(retryAfterMs(' 0 ', now), 0);
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now), 0, 'a past date: no wait');
});

test('a wait longer than the cap is the cap', () => {
  assert.equal(retryAfterMs('86400', now), MAX_RETRY_AFTER_MS);
  assert.equal(retryAfterMs('Fri, 02 Jan 2026 00:00:00 GMT', now), MAX_RETRY_AFTER_MS);
});

test('absent or unreadable: no answer (the doubling backoff applies)', () => {
  assert.equal(retryAfterMs(undefined, now), null);
  assert.equal(retryAfterMs('', now), null);
  assert.equal(retryAfterMs('soon', now), null);
  assert.equal(retryAfterMs('-5', now), null);
});
