/**
 * The settle's windows on a starved machine (page-settle.ts): a probe that comes back long
 * after it was asked is time in which nothing could be seen, not quiet. The CDP session and
 * the page's probe are stand-ins (the logic is pure); the page's fetch is sent as it loads,
 * the renderer's first answer comes back late (as on a busy 2-core machine), and the answer
 * to the fetch arrives after that.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { Budget } from '../../../../src/scrape/engines/browser/budget.js';
import {
  type NetworkSession,
  PendingRequests,
  settle,
} from '../../../../src/scrape/engines/browser/page-settle.js';
import type { SettleProbe } from '../../../../src/scrape/engines/browser/settle-scripts.js';

/** Longer than OPEN_REQUEST_MS (1 s): the wall clock alone calls the fetch held open. */
const STARVED_PROBE_MS = 1_300;

class FakeSession extends EventEmitter {
  async send(): Promise<unknown> {
    return {};
  }
}

const idle: SettleProbe = { loaded: true, sinceChangeMs: null, timers: false, refreshing: false };

test('a fetch sent at load still counts as work when the first probe comes back late', async () => {
  const session = new FakeSession();
  const requests = PendingRequests.watch(session as unknown as NetworkSession);
  session.emit('Network.requestWillBeSent', {
    requestId: 'api',
    type: 'Fetch',
    request: { url: 'http://127.0.0.1:1/api/content', method: 'GET' },
  });
  let answered = false;
  let probes = 0;
  const target = {
    page: {} as Page,
    async probeSettle(): Promise<SettleProbe> {
      probes += 1;
      if (probes > 1) return idle;
      await delay(STARVED_PROBE_MS);
      // The site answers soon after the renderer got the CPU back.
      setTimeout(() => {
        session.emit('Network.responseReceived', {
          requestId: 'api',
          response: { mimeType: 'application/json' },
        });
        session.emit('Network.loadingFinished', { requestId: 'api' });
        answered = true;
      }, 150);
      return idle;
    },
  };
  const budget = new Budget(Date.now() + 60_000, 60_000);
  await settle(target, requests, budget, { maxMs: 30_000, reserveMs: 0 });
  requests.stop();
  assert.equal(answered, true, 'the settle ended before the page had its answer');
  assert.ok(probes > 2, `probes: ${probes}`);
});

test('on a machine with CPU to spare, a request unanswered for a second is still held open', async () => {
  const session = new FakeSession();
  const requests = PendingRequests.watch(session as unknown as NetworkSession);
  session.emit('Network.requestWillBeSent', {
    requestId: 'poll',
    type: 'Fetch',
    request: { url: 'http://127.0.0.1:1/api/hold', method: 'GET' },
  });
  const target = { page: {} as Page, probeSettle: async () => idle };
  const budget = new Budget(Date.now() + 60_000, 60_000);
  let ended = false;
  const settled = settle(target, requests, budget, { maxMs: 30_000, reserveMs: 0 }).then(() => {
    ended = true;
  });
  // Never answered: the settle ends on its own (OPEN_REQUEST_MS), far before its 30 s cap.
  await Promise.race([settled, delay(20_000)]);
  requests.stop();
  assert.equal(ended, true, 'a request that never answers held the settle to its cap');
});
