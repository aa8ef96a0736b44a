import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isRetryableStatus,
  isSuccessStatus,
  retryDelayMs,
  WEBHOOK_MAX_ATTEMPTS,
} from '../../../src/jobs/webhooks/retry-schedule.js';

test('waits double after each failed attempt, starting at the base', () => {
  const mid = () => 0.5; // no jitter
  assert.deepEqual(
    [1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, mid)),
    [1000, 2000, 4000, 8000],
  );
});

test('jitter stays within ±20 % of the nominal wait', () => {
  assert.equal(
    retryDelayMs(3, 1000, () => 0),
    3200,
  );
  assert.equal(
    retryDelayMs(3, 1000, () => 0.999999),
    4800,
  );
  for (let i = 0; i < 200; i++) {
    const wait = retryDelayMs(2, 1000);
    assert.ok(wait >= 1600 && wait <= 2400, `${wait}`);
  }
});

test('8 attempts with the default 30 s base span about an hour', () => {
  assert.equal(WEBHOOK_MAX_ATTEMPTS, 8);
  let total = 0;
  for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt++) {
    total += retryDelayMs(attempt, 30_000, () => 0.5);
  }
  assert.equal(total, 3_810_000);
  const lowest = [1, 2, 3, 4, 5, 6, 7].reduce((s, a) => s + retryDelayMs(a, 30_000, () => 0), 0);
  const highest = [1, 2, 3, 4, 5, 6, 7].reduce((s, a) => s + retryDelayMs(a, 30_000, () => 1), 0);
  assert.ok(lowest > 45 * 60_000 && highest < 80 * 60_000, `${lowest}..${highest}`);
});

test('408, 429 and 5xx are retried; other non-2xx answers are final', () => {
  for (const status of [408, 429, 500, 502, 503, 504, 599]) assert.ok(isRetryableStatus(status));
  for (const status of [200, 301, 302, 400, 401, 403, 404, 410, 422, 600]) {
    assert.equal(isRetryableStatus(status), false, String(status));
  }
  assert.ok(isSuccessStatus(200) && isSuccessStatus(204) && isSuccessStatus(299));
  assert.equal(isSuccessStatus(300), false);
  assert.equal(isSuccessStatus(199), false);
});
