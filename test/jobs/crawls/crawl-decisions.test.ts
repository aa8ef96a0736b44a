/** A crawl's decisions, free of storage (pure): politeness, idling, backoff, redirects. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  busyHosts,
  hostDelayMs,
  hostVerdict,
  IDLE_WAIT_MS,
  idleAnswer,
  landedOnAnotherPage,
  nextBackoffMs,
  redirectLanding,
  throttledUntil,
} from '../../../src/jobs/crawls/crawl-decisions.js';

const now = 1_000_000;

test('a host waiting for its next start makes the page wait until then', () => {
  assert.deepEqual(hostVerdict({ nextAt: now + 500, running: 0 }, now, 2, 0), {
    type: 'wait',
    runAt: now + 500,
  });
});

test('a host at its bound makes the page wait a short while', () => {
  assert.deepEqual(hostVerdict({ nextAt: 0, running: 2 }, now, 2, 0), {
    type: 'wait',
    runAt: now + IDLE_WAIT_MS,
  });
});

test('a free host starts the page and, with a delay, pushes its next start back', () => {
  assert.deepEqual(hostVerdict({ nextAt: now, running: 1 }, now, 2, 300), {
    type: 'start',
    nextAt: now + 300,
  });
  assert.deepEqual(hostVerdict({ nextAt: 0, running: 0 }, now, 1, 0), {
    type: 'start',
    nextAt: null,
  });
});

test('the delay is the longest of the crawl, the setting and robots.txt unless ignored', () => {
  assert.equal(hostDelayMs(100, 50, 2_000, false), 2_000);
  assert.equal(hostDelayMs(100, 50, 2_000, true), 100);
  assert.equal(hostDelayMs(0, 250, 0, false), 250);
});

test('busy hosts are those waiting past now or full, with the soonest free time', () => {
  const { busy, soonest } = busyHosts(
    [
      { host: 'a', nextAt: now + 900 },
      { host: 'b', nextAt: now + 100 },
      { host: 'c', nextAt: now - 1 },
    ],
    ['d'],
    now,
  );
  assert.deepEqual([...busy].sort(), ['a', 'b', 'd']);
  assert.equal(soonest, now + 100);
});

test('nothing startable: empty when nothing is queued, with the running count', () => {
  assert.deepEqual(
    idleAnswer(now, Number.POSITIVE_INFINITY, { queued: 0, running: 3, soonest: null }),
    {
      type: 'empty',
      running: 3,
    },
  );
});

test('nothing startable but pages queued: wait for the soonest, within 20 ms and the idle wait', () => {
  const open = { queued: 2, running: 0, soonest: null };
  assert.deepEqual(idleAnswer(now, Number.POSITIVE_INFINITY, open), {
    type: 'wait',
    runAt: now + IDLE_WAIT_MS,
  });
  assert.deepEqual(idleAnswer(now, now + 50, open), { type: 'wait', runAt: now + 50 });
  assert.deepEqual(idleAnswer(now, now + 1, open), { type: 'wait', runAt: now + 20 });
  assert.deepEqual(idleAnswer(now, Number.POSITIVE_INFINITY, { ...open, soonest: now + 70 }), {
    type: 'wait',
    runAt: now + 70,
  });
});

test('a refusing host waits twice as long each time, from the first backoff up to 60 s', () => {
  assert.equal(nextBackoffMs(0, 1_000), 1_000);
  assert.equal(nextBackoffMs(1_000, 1_000), 2_000);
  assert.equal(nextBackoffMs(40_000, 1_000), 60_000);
  assert.equal(nextBackoffMs(0, 100), 100, 'CRAWL_BACKOFF_MS sets the first wait');
  assert.equal(nextBackoffMs(100, 100), 200);
  assert.equal(throttledUntil(now, null, 4_000), now + 4_000);
  assert.equal(throttledUntil(now, 0, 4_000), now, 'Retry-After: 0 is honoured, not the guess');
});

test('a redirect target new to the crawl joins its keys; its own key keeps the page', () => {
  assert.deepEqual(redirectLanding(undefined, 'p'), { type: 'add' });
  assert.deepEqual(redirectLanding({ id: 'p', state: 'running' }, 'p'), { type: 'keep' });
});

test('a target only queued is taken over; one loaded or loading makes a duplicate', () => {
  assert.deepEqual(redirectLanding({ id: 'q', state: 'queued' }, 'p'), {
    type: 'take-over',
    rowId: 'q',
  });
  for (const state of ['running', 'done', 'failed', 'redirected', 'blocked']) {
    assert.deepEqual(redirectLanding({ id: 'q', state }, 'p'), { type: 'duplicate' }, state);
  }
});

test('a page landing on a URL another row holds is that row, unless only queued', () => {
  assert.equal(landedOnAnotherPage(null), false);
  assert.equal(landedOnAnotherPage('queued'), false);
  assert.equal(landedOnAnotherPage('running'), true);
  assert.equal(landedOnAnotherPage('done'), true);
});
