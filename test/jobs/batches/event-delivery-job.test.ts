/**
 * A batch event's delivery against a real receiver: Firecrawl's body, signed as the native
 * webhooks are and with Firecrawl's header, the caller's headers (never over ours), the same
 * bytes and webhookId on every attempt, retried on 5xx and ended on a 4xx.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAccount } from '../../../src/accounts/account-store.js';
import { DEFAULTS } from '../../../src/config.js';
import { batchWebhookOf, queueBatchEvent } from '../../../src/jobs/batches/batch-events.js';
import { eventDeliveryJobHandler } from '../../../src/jobs/batches/event-delivery-job.js';
import { EVENT_JOB } from '../../../src/jobs/batches/job-kinds.js';
import type { JobOutcome } from '../../../src/jobs/job-worker.js';
import { createWebhookPoster } from '../../../src/jobs/webhooks/post-webhook.js';
import { verifyWebhook } from '../../../src/jobs/webhooks/signature.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { JobQueue } from '../../../src/store/job-queue.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

const openHttp = createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 });
const guardedHttp = createHttpClient({ allowPrivateNetworks: false, maxBodyBytes: 1 << 20 });

const dir = mkdtempSync(join(tmpdir(), 'pagegrab-batch-events-'));
const post = createWebhookPoster({
  http: openHttp,
  timeoutMs: DEFAULTS.webhookTimeoutMs,
});
let store: Store;
let jobs: JobQueue;
let receiver: WebhookReceiver;
let account: { id: string; webhookSecret: string };

before(async () => {
  store = await openStore({ databaseUrl: null, dataDir: dir });
  jobs = new JobQueue(store.db, store.dialect);
  ({ account } = await createAccount(store.db, { name: 't', credits: 1, concurrencyLimit: 1 }));
  receiver = await startWebhookReceiver({ secret: account.webhookSecret });
});
after(async () => {
  await Promise.all([store?.close(), receiver?.close(), openHttp.close(), guardedHttp.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const handler = () => eventDeliveryJobHandler({ db: store.db, post, backoffMs: 10 });

async function queueEvent(batchId: string, path: string) {
  const webhook = batchWebhookOf({
    url: receiver.url(path),
    headers: { 'X-Custom': 'mine', 'X-Webhook-Signature': 'forged' },
    metadata: { run: '42' },
  });
  const target = { batchId, accountId: account.id, webhook };
  const body = {
    key: 'page.0',
    event: 'page',
    success: true,
    data: [{ markdown: '# A' }],
  } as const;
  assert.ok(await queueBatchEvent(store.db, jobs, target, body));
  // Queued again (a resumed step): still one event, one webhookId.
  await queueBatchEvent(store.db, jobs, target, body);
  assert.equal(await jobs.countQueued(EVENT_JOB), 1);
}

async function runOnce(): Promise<JobOutcome> {
  const [job] = await jobs.claim('w/batch-webhook', [EVENT_JOB], 1, 60_000);
  assert.ok(job);
  const outcome = await handler()(job, new AbortController().signal);
  if (outcome.type === 'done') await jobs.complete(job.id, job.lockedBy);
  if (outcome.type === 'retry') await jobs.retry(job.id, job.lockedBy, Date.now(), outcome.error);
  if (outcome.type === 'fail') await jobs.fail(job.id, job.lockedBy, outcome.error);
  return outcome;
}

test("an event is Firecrawl's body, signed natively and Firecrawl's way, with the caller's headers", async () => {
  await queueEvent('batch-1', '/signed');
  assert.deepEqual(await runOnce(), { type: 'done' });
  const [delivery] = receiver.deliveries.filter((d) => d.path === '/signed');
  assert.ok(delivery);
  const body = JSON.parse(delivery.body.toString('utf8'));
  assert.equal(body.success, true);
  assert.equal(body.type, 'batch_scrape.page');
  assert.equal(body.id, 'batch-1');
  assert.deepEqual(body.data, [{ markdown: '# A' }]);
  assert.deepEqual(body.metadata, { run: '42' });
  assert.match(body.webhookId, /^[0-9a-f-]{36}$/);
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
  const { headers } = delivery;
  assert.equal(headers['x-custom'], 'mine');
  assert.equal(headers['x-request-id'], body.webhookId);
  assert.equal(receiver.badSignatures(), 0);
  assert.ok(
    verifyWebhook(
      account.webhookSecret,
      String(headers['x-webhook-timestamp']),
      delivery.body,
      String(headers['x-webhook-signature']),
    ),
  );
  const firecrawl = createHmac('sha256', account.webhookSecret).update(delivery.body).digest('hex');
  assert.equal(headers['x-firecrawl-signature'], `sha256=${firecrawl}`);
});

test('a 5xx is tried again with the same bytes; a 4xx ends the delivery', async () => {
  receiver.script('/retry', [503]);
  await queueEvent('batch-2', '/retry');
  assert.equal((await runOnce()).type, 'retry');
  assert.deepEqual(await runOnce(), { type: 'done' });
  const [first, second] = receiver.deliveries.filter((d) => d.path === '/retry');
  assert.ok(first && second);
  assert.deepEqual(first.body, second.body);

  receiver.script('/gone', [410]);
  await queueEvent('batch-3', '/gone');
  assert.deepEqual(await runOnce(), { type: 'fail', error: 'receiver answered HTTP 410' });
});
