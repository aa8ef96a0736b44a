/**
 * The batch service the Firecrawl door calls, on a real store (scripted scraper, see
 * harness.ts): what a start accepts and refuses, results paged by count and bytes in the
 * order pages ended, a batch invisible to other accounts, cancel, credits running out, purge.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount } from '../../../src/accounts/account-store.js';
import { MAX_RESULT_BYTES } from '../../../src/jobs/batches/batch-results.js';
import { createBatchService } from '../../../src/jobs/batches/batch-service.js';
import { getBatch, purgeBatches } from '../../../src/store/batches.js';
import { until } from '../../helpers/until.js';
import { eventKeysOf, ledgerOf, siteUrls, startHarness } from './harness.js';

const V2 = { formats: ['markdown'], maxAge: 0 };
const base = 'http://127.0.0.1:1';

test('invalid URLs are listed (v2 default) or refuse the batch (v1 default)', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const urls = ['http://site.test/a', 'not a url', 'ftp://site.test/b'];
  const started = await h.service.start({
    account: h.account,
    version: 'v2',
    urls,
    options: V2,
    baseUrl: base,
  });
  assert.deepEqual(started.invalidURLs, ['not a url', 'ftp://site.test/b']);
  assert.equal((await getBatch(h.store.db, started.id))?.total, 1);
  await assert.rejects(
    h.service.start({ account: h.account, version: 'v1', urls, options: V2, baseUrl: base }),
    { code: 'BAD_REQUEST', message: 'urls[1] is not a valid URL: not a url' },
  );
});

test('options are checked once for the whole batch: a model format without a model refuses it', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  await assert.rejects(
    h.service.start({
      account: h.account,
      version: 'v2',
      urls: siteUrls(2),
      options: { formats: ['summary'] },
      baseUrl: base,
    }),
    // As /scrape answers it: the batch offers the model's formats when a model is configured.
    { code: 'MODEL_NOT_CONFIGURED', message: /^The summary format needs a language model/ },
  );
});

test('a webhook whose address the guard refuses refuses the batch', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const refused = new Error('refused');
  const service = createBatchService({
    store: h.store,
    jobs: h.jobs,
    assertAllowed: async (url) => {
      if (url.startsWith('http://10.')) throw refused;
    },
    retentionMs: 3600_000,
  });
  await assert.rejects(
    service.start({
      account: h.account,
      version: 'v2',
      urls: siteUrls(1),
      options: V2,
      webhook: { url: 'http://10.0.0.1/hook' },
      baseUrl: base,
    }),
    refused,
  );
});

test('an account without credits is refused at once (402), saying what a start needs', async (t) => {
  const h = await startHarness({ credits: 0 });
  t.after(() => h.close());
  await assert.rejects(
    h.service.start({
      account: h.account,
      version: 'v2',
      urls: siteUrls(1),
      options: V2,
      baseUrl: base,
    }),
    {
      code: 'INSUFFICIENT_CREDITS',
      message:
        'Insufficient credits to perform this request: it needs 1 credit and the account has 0.',
    },
  );
});

test('a batch with no valid URL completes at once', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { id, invalidURLs } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: ['nope'],
    options: V2,
    webhook: 'http://hooks.test/',
    baseUrl: base,
  });
  assert.deepEqual(invalidURLs, ['nope']);
  const answer = await h.service.status(h.accountId, id, {});
  assert.equal(answer?.status, 'completed');
  assert.equal(answer?.total, 0);
  assert.deepEqual(await eventKeysOf(h.store, id), ['completed', 'started']);
});

test('results are paged by count in the order pages ended, with where the next page starts', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(20),
    options: V2,
    maxConcurrency: 1,
    baseUrl: base,
  });
  h.startWorker();
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);
  const seen: string[] = [];
  let skip: number | null = 0;
  let answers = 0;
  while (skip !== null) {
    const answer = await h.service.status(h.accountId, id, { skip, limit: 7 });
    assert.ok(answer);
    assert.ok(answer.data.length <= 7);
    seen.push(...answer.data.map((doc) => String(doc.metadata.sourceURL)));
    skip = answer.nextSkip;
    answers++;
  }
  assert.equal(answers, 3);
  // One lane: pages ended in list order.
  assert.deepEqual(seen, siteUrls(20));
  const all = await h.service.status(h.accountId, id, {});
  assert.equal(all?.data.length, 20);
  assert.equal(all?.nextSkip, null);
});

test('an answer holds about 10 MB of results at most, and always one', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const big = Math.floor(MAX_RESULT_BYTES * 0.4);
  h.scraper.markdown = (url) => url.padEnd(big, 'x');
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(5),
    options: V2,
    maxConcurrency: 1,
    baseUrl: base,
  });
  h.startWorker();
  await until(async () => (await getBatch(h.store.db, id))?.status === 'completed', 15_000);
  const first = await h.service.status(h.accountId, id, {});
  assert.equal(first?.data.length, 2);
  assert.equal(first?.nextSkip, 2);
  const second = await h.service.status(h.accountId, id, { skip: 2 });
  assert.equal(second?.data.length, 2);
  const last = await h.service.status(h.accountId, id, { skip: 4 });
  assert.equal(last?.data.length, 1);
  assert.equal(last?.nextSkip, null);
});

test("another account's batch is not found, nor an unknown id", async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(1),
    options: V2,
    baseUrl: base,
  });
  const { account: other } = await createAccount(h.store.db, {
    name: 'other',
    credits: 10,
    concurrencyLimit: 1,
  });
  assert.equal(await h.service.status(other.id, id, {}), null);
  assert.equal(await h.service.errors(other.id, id), null);
  assert.equal(await h.service.cancel(other.id, id), null);
  assert.equal(await h.service.status(h.accountId, 'no-such-id', {}), null);
  assert.equal((await getBatch(h.store.db, id))?.status, 'scraping');
});

test('cancel: pages not started are never loaded nor charged, running ones finish', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  h.scraper.hold = () => gate;
  const urls = siteUrls(10);
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls,
    options: V2,
    maxConcurrency: 2,
    webhook: 'http://hooks.test/',
    baseUrl: base,
  });
  h.startWorker();
  await until(() => h.scraper.running === 2);
  assert.equal(await h.service.cancel(h.accountId, id), 'cancelled');
  release();
  await until(async () => (await h.jobs.countQueued('batch-lane')) === 0, 15_000);
  assert.equal(h.scraper.loads.size, 2);
  const answer = await h.service.status(h.accountId, id, {});
  assert.equal(answer?.status, 'cancelled');
  assert.equal(answer?.completed, 2);
  assert.equal(answer?.data.length, 2);
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.reserve.length, 2);
  assert.equal(ledger.settle.length, 2);
  const events = await eventKeysOf(h.store, id);
  assert.ok(events.includes('failed'));
  assert.ok(!events.includes('completed'));
  // A second cancel changes nothing.
  assert.equal(await h.service.cancel(h.accountId, id), 'cancelled');
});

test('credits running out fail the batch: the page is a 402 error and the rest never run', async (t) => {
  const h = await startHarness({ credits: 3 });
  t.after(() => h.close());
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(6),
    options: V2,
    maxConcurrency: 1,
    webhook: 'http://hooks.test/',
    baseUrl: base,
  });
  h.startWorker();
  await until(async () => (await getBatch(h.store.db, id))?.status !== 'scraping', 15_000);
  await until(async () => (await h.jobs.countQueued('batch-lane')) === 0, 15_000);
  const answer = await h.service.status(h.accountId, id, {});
  assert.equal(answer?.status, 'failed');
  assert.equal(answer?.data.length, 3);
  // The failed page is in neither count (Firecrawl's): `completed` is what `data` holds.
  assert.equal(answer?.completed, 3);
  assert.equal(answer?.total, 5);
  const errors = await h.service.errors(h.accountId, id);
  assert.deepEqual(
    errors?.map((e) => [e.code, e.error]),
    [['INSUFFICIENT_CREDITS', 'Insufficient credits to make the request.']],
  );
  assert.equal(h.scraper.loads.size, 3);
  const ledger = await ledgerOf(h.store, h.accountId);
  assert.equal(ledger.settle.length, 3);
  assert.equal(ledger.reserve.length, 3);
  const events = await eventKeysOf(h.store, id);
  assert.ok(events.includes('failed'));
});

test('expired batches are purged with their pages', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { id } = await h.service.start({
    account: h.account,
    version: 'v2',
    urls: siteUrls(3),
    options: V2,
    baseUrl: base,
  });
  const batch = await getBatch(h.store.db, id);
  assert.ok(batch);
  assert.equal(await purgeBatches(h.store.db, batch.expiresAt - 1), 0);
  assert.equal(await purgeBatches(h.store.db, batch.expiresAt), 1);
  assert.equal(await getBatch(h.store.db, id), null);
  const pages = await h.store.db
    .selectFrom('batch_pages' as never)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(pages.n), 0);
});
