/**
 * A batch's lanes on a real embedded store, job queue and ledger (the scraper is scripted,
 * see harness.ts): every page runs once and is charged once, no more pages run at once than
 * the batch allows, the batch completes with its events, and a lane whose process died
 * resumes its page without loading or charging it twice.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getBatch } from '../../../src/store/batches.js';
import { laneHeldPage } from '../../../src/store/batches-pages.js';
import { until } from '../../helpers/until.js';
import { eventKeysOf, ledgerOf, siteUrls, startHarness } from './harness.js';

const V2 = { formats: ['markdown'], maxAge: 0 };

test('every page of a batch is loaded once and charged once, and the batch completes with its events', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const urls = siteUrls(30);
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls,
    options: V2,
    webhook: 'http://hooks.test/batch',
    baseUrl: 'http://127.0.0.1:1',
  });
  h.startWorker(8);
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);

  assert.deepEqual(
    [...h.scraper.loads.values()],
    urls.map(() => 1),
  );
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.settle.length, 30);
  assert.equal(new Set(ledger.settle.map((row) => row.request_id)).size, 30);
  assert.equal(ledger.refund.length, 0);
  const batch = await getBatch(h.store.db, id);
  assert.equal(batch?.ended, 30);
  assert.equal(batch?.creditsUsed, 30);
  const events = await eventKeysOf(h.store, id);
  assert.deepEqual(events, ['completed', 'started', ...urls.map((_, i) => `page.${i}`)].sort());
});

test('no more pages of a batch run at once than its maxConcurrency', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  h.scraper.hold = () => gate;
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(12),
    options: V2,
    maxConcurrency: 3,
    baseUrl: 'http://127.0.0.1:1',
  });
  h.startWorker(10);
  await until(() => h.scraper.running === 3);
  // The worker has room for 10: the batch's lanes are what holds it to 3.
  assert.equal(await h.jobs.countQueued('batch-lane'), 3);
  release();
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);
  assert.equal(h.scraper.maxRunning, 3);
});

test("without maxConcurrency a batch runs at most the account's concurrency limit at once", async (t) => {
  const h = await startHarness({ concurrencyLimit: 2 });
  t.after(() => h.close());
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(8),
    options: V2,
    baseUrl: 'http://127.0.0.1:1',
  });
  assert.equal((await getBatch(h.store.db, id))?.lanes, 2);
});

test('a page refused for the account being at its concurrency limit waits and runs later, charged once', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  h.scraper.behaviour = (_url, run) => (run <= 2 ? 'busy' : 'ok');
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(1),
    options: V2,
    baseUrl: 'http://127.0.0.1:1',
  });
  const first = await h.step();
  assert.equal(first?.outcome === 'died' ? 'died' : first?.outcome.type, 'release');
  // The page stays the lane's, its reservation kept.
  const held = await laneHeldPage(h.store.db, id, 0);
  assert.ok(held?.plan);
  await h.step();
  await h.step();
  assert.equal((await getBatch(h.store.db, id))?.status, 'completed');
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.reserve.length, 1);
  assert.equal(ledger.settle.length, 1);
});

test('a lane taken over after its process died with the result stored settles it without loading again', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  h.scraper.behaviour = (_url, run) => (run === 1 ? 'die-before-settle' : 'ok');
  const [url] = siteUrls(1);
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: [url as string],
    options: V2,
    baseUrl: 'http://127.0.0.1:1',
  });
  assert.equal((await h.step())?.outcome, 'died');
  await h.restart();
  await h.step();
  assert.equal((await getBatch(h.store.db, id))?.status, 'completed');
  assert.equal(h.scraper.loads.get(url as string), 1);
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.reserve.length, 1);
  assert.equal(ledger.settle.length, 1);
  const answer = await h.service.status(h.accountId, id, {});
  assert.equal(answer?.data.length, 1);
  assert.equal(answer?.data[0]?.metadata.creditsUsed, 1);
});

test('a page whose load died is loaded again under the same reservation, charged once', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  h.scraper.behaviour = (_url, run) => (run === 1 ? 'die-scraping' : 'ok');
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(1),
    options: V2,
    baseUrl: 'http://127.0.0.1:1',
  });
  assert.equal((await h.step())?.outcome, 'died');
  await h.restart();
  await h.step();
  assert.equal((await getBatch(h.store.db, id))?.status, 'completed');
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.reserve.length, 1);
  assert.equal(ledger.settle.length, 1);
});

test('a page whose run dies on each of its three claims fails, refunded, and the batch goes on', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const [bad, good] = siteUrls(2);
  h.scraper.behaviour = (url) => (url === bad ? 'die-scraping' : 'ok');
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: [bad as string, good as string],
    options: V2,
    maxConcurrency: 1,
    baseUrl: 'http://127.0.0.1:1',
  });
  for (let claim = 1; claim <= 2; claim++) {
    assert.equal((await h.step())?.outcome, 'died');
    await h.restart();
  }
  // The third run dies too: on its last claim the step fails the page rather than the lane.
  const third = await h.step();
  assert.deepEqual(third?.outcome, { type: 'ended' });
  await h.step();
  assert.equal((await getBatch(h.store.db, id))?.status, 'completed');
  const errors = await h.service.errors(h.accountId, id);
  assert.deepEqual(
    errors?.map((e) => [e.url, e.code]),
    [[bad, 'INTERNAL']],
  );
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.settle.length, 1);
  assert.equal(ledger.refund.length, 1);
  assert.equal(ledger.reserve.length, 2);
});

test('a failed load is an error of its page: refunded, listed in errors, the batch completes', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const urls = siteUrls(3);
  h.scraper.behaviour = (url) => (url === urls[1] ? 'fail' : 'ok');
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls,
    options: V2,
    webhook: { url: 'http://hooks.test/', events: ['page'] },
    baseUrl: 'http://127.0.0.1:1',
  });
  h.startWorker();
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);
  const answer = await h.service.status(h.accountId, id, {});
  // As Firecrawl counts: the failed page is under the errors, not in completed or total.
  assert.equal(answer?.completed, 2);
  assert.equal(answer?.total, 2);
  assert.equal(answer?.data.length, 2);
  assert.equal(answer?.creditsUsed, 2);
  const errors = await h.service.errors(h.accountId, id);
  assert.equal(errors?.length, 1);
  assert.equal(errors?.[0]?.code, 'FETCH_FAILED');
  assert.equal(errors?.[0]?.error, 'Failed to fetch the page: connection refused');
  // Only the events the webhook asked for.
  assert.deepEqual(await eventKeysOf(h.store, id), ['page.0', 'page.1', 'page.2']);
});

test('a page answered from the cache is charged the cache price once and not loaded', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const url = 'http://site.test/cached/1';
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: [url],
    options: { formats: ['markdown'] },
    baseUrl: 'http://127.0.0.1:1',
  });
  h.startWorker();
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);
  assert.equal(h.scraper.loads.size, 0);
  const answer = await h.service.status(h.accountId, id, {});
  assert.equal(answer?.data[0]?.metadata.cacheState, 'hit');
  assert.equal(answer?.data[0]?.metadata.creditsUsed, 1);
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.settle.length, 1);
});

test('a scraped page is remembered in the cache when storeInCache allows', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const urls = siteUrls(2);
  const first = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: [urls[0] as string],
    options: { formats: ['markdown'] },
    baseUrl: 'http://127.0.0.1:1',
  });
  const second = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: [urls[1] as string],
    options: { formats: ['markdown'], storeInCache: false },
    baseUrl: 'http://127.0.0.1:1',
  });
  h.startWorker();
  await until(async () => {
    const [a, b] = await Promise.all([
      getBatch(h.store.db, first.id),
      getBatch(h.store.db, second.id),
    ]);
    return a?.status === 'completed' && b?.status === 'completed';
  }, 15_000);
  assert.deepEqual(h.remembered, [urls[0]]);
});

test('a lane step claimed more often than allowed fails its page and refunds the reservation its dead holders left', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  h.scraper.behaviour = () => 'die-scraping';
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(1),
    options: V2,
    baseUrl: 'http://127.0.0.1:1',
  });
  for (let claim = 1; claim <= 2; claim++) {
    assert.equal((await h.step())?.outcome, 'died');
    await h.restart();
  }
  assert.ok(await h.claimAndDie());
  await h.restart();
  assert.deepEqual((await h.step())?.outcome, { type: 'ended' });
  assert.equal((await getBatch(h.store.db, id))?.status, 'completed');
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.reserve.length, 1);
  assert.equal(ledger.refund.length, 1);
  assert.equal(ledger.settle.length, 0);
});
