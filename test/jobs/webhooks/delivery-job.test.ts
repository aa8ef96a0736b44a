/**
 * The delivery job's bookkeeping on a real embedded store and a real receiver: who may write
 * the webhook state when two workers end up holding the same job (the first one's lease ran
 * out while it was posting), and what a 2xx that arrives as the service stops does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAccount } from '../../../src/accounts/account-store.js';
import { DEFAULTS } from '../../../src/config.js';
import { deliveryJobHandler } from '../../../src/jobs/webhooks/delivery-job.js';
import {
  DELIVERY_JOB,
  type DeliveryPayload,
  deliveryJobId,
} from '../../../src/jobs/webhooks/job-kinds.js';
import {
  createWebhookPoster,
  type WebhookPoster,
} from '../../../src/jobs/webhooks/post-webhook.js';
import { WEBHOOK_MAX_ATTEMPTS } from '../../../src/jobs/webhooks/retry-schedule.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { type ClaimedJob, JobQueue } from '../../../src/store/job-queue.js';
import { saveRunRecord, type WebhookState } from '../../../src/store/run-records.js';
import { loadResult, saveResult } from '../../../src/store/webhook-results.js';
import { sampleRunRecord } from '../../helpers/run-record.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const openHttp = createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 });
const guardedHttp = createHttpClient({ allowPrivateNetworks: false, maxBodyBytes: 1 << 20 });

const dir = mkdtempSync(join(tmpdir(), 'pagegrab-delivery-job-'));
const post = createWebhookPoster({
  http: openHttp,
  timeoutMs: DEFAULTS.webhookTimeoutMs,
});
let store: Store;
let receiver: WebhookReceiver;
let accountId: string;
/** The queue's clock runs ahead of real time by `skew` ms (leases expire without sleeping). */
let skew = 0;
let jobs: JobQueue;

before(async () => {
  [store, receiver] = await Promise.all([
    openStore({ databaseUrl: null, dataDir: dir }),
    startWebhookReceiver(),
  ]);
  jobs = new JobQueue(store.db, store.dialect, () => Date.now() + skew);
  const { account } = await createAccount(store.db, {
    name: 't',
    credits: 10,
    concurrencyLimit: 1,
  });
  accountId = account.id;
});
after(async () => {
  await Promise.all([store?.close(), receiver?.close(), openHttp.close(), guardedHttp.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A webhook request whose scrape is done: pending record, stored bytes, delivery job. */
async function pendingDelivery(path: string): Promise<DeliveryPayload> {
  const url = receiver.url(path);
  const webhook: WebhookState = { url, status: 'pending', attempts: 0, lastError: null };
  const record = sampleRunRecord({ accountId, workflowId: null, url: 'http://t.test/', webhook });
  await saveRunRecord(store.db, record);
  await saveResult(store.db, {
    requestId: record.id,
    scrapeStatus: 'success',
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(`<p>${path}</p>`),
    targetStatus: 200,
    targetUrl: 'http://t.test/',
    errorCode: null,
  });
  const payload: DeliveryPayload = {
    requestId: record.id,
    accountId,
    workflowId: null,
    webhookUrl: url,
  };
  await jobs.enqueue(DELIVERY_JOB, payload, {
    id: deliveryJobId(record.id),
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  });
  return payload;
}

async function claimOne(worker: string): Promise<ClaimedJob> {
  const [job] = await jobs.claim(worker, [DELIVERY_JOB], 1, 1000);
  assert.ok(job, `${worker} claimed nothing`);
  return job;
}

async function stateOf(requestId: string): Promise<WebhookState> {
  const row = await store.db
    .selectFrom('requests')
    .select('webhook')
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.webhook ?? 'null') as WebhookState;
}

const handler = (poster: WebhookPoster = post) =>
  deliveryJobHandler({ db: store.db, jobs, post: poster, backoffMs: 10 });
const live = () => new AbortController().signal;

test('a worker whose lease ran out writes no state; the holder of the job decides it', async () => {
  const payload = await pendingDelivery('/lost-lease');
  receiver.script('/lost-lease', [200, 500]);
  const stale = await claimOne('a');
  skew += 2000; // a's lease (1 s) has run out: b takes the job
  const holder = await claimOne('b');
  assert.equal(holder.id, stale.id);

  // a's POST was answered 2xx, but a no longer holds the job.
  assert.deepEqual(await handler()(stale, live()), { type: 'ended' });
  assert.equal((await stateOf(payload.requestId)).status, 'pending');
  assert.ok(await loadResult(store.db, payload.requestId), 'the bytes stay for the holder');

  // b's attempt is answered 500: a retry, recorded because b holds the job.
  assert.deepEqual(await handler()(holder, live()), { type: 'ended' });
  assert.deepEqual(await stateOf(payload.requestId), {
    url: payload.webhookUrl,
    status: 'pending',
    attempts: 2,
    lastError: 'receiver answered HTTP 500',
  });
  const retried = await jobs.get(holder.id);
  assert.equal(retried?.state, 'queued');
  assert.equal(retried?.lockedBy, null);

  skew += 10_000; // past the backoff
  await handler()(await claimOne('c'), live());
  assert.deepEqual(await stateOf(payload.requestId), {
    url: payload.webhookUrl,
    status: 'delivered',
    attempts: 3,
    lastError: null,
  });
  assert.equal((await jobs.get(holder.id))?.state, 'done');
  assert.equal(await loadResult(store.db, payload.requestId), null);
  assert.equal(receiver.deliveries.filter((d) => d.path === '/lost-lease').length, 3);
});

test('a 2xx that arrives as the service stops ends the delivery instead of sending it again', async () => {
  const payload = await pendingDelivery('/stopping');
  const stopping = new AbortController();
  // The stop (abort) lands after the receiver answered.
  const answeredThenStopped: WebhookPoster = async (delivery, signal) => {
    const result = await post(delivery, signal);
    stopping.abort(new Error('service shutting down'));
    return result;
  };
  const job = await claimOne('d');
  assert.deepEqual(await handler(answeredThenStopped)(job, stopping.signal), { type: 'ended' });
  assert.equal((await stateOf(payload.requestId)).status, 'delivered');
  assert.equal((await jobs.get(job.id))?.state, 'done');
});

test('an attempt aborted by the stop before any answer gives the job back', async () => {
  const payload = await pendingDelivery('/aborted');
  const stopping = new AbortController();
  stopping.abort(new Error('service shutting down'));
  const job = await claimOne('e');
  assert.deepEqual(await handler()(job, stopping.signal), { type: 'release' });
  assert.equal((await stateOf(payload.requestId)).status, 'pending');
  assert.ok(await loadResult(store.db, payload.requestId));
});
