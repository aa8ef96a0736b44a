import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { createWebhookPoster } from '../../../src/jobs/webhooks/post-webhook.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import {
  DROP,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver.js';

const openHttp = createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 });
const guardedHttp = createHttpClient({ allowPrivateNetworks: false, maxBodyBytes: 1 << 20 });

let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver.close();
  await Promise.all([openHttp.close(), guardedHttp.close()]);
});

const body = Buffer.from('<p>x</p>');
const headers = { 'Content-Type': 'text/html; charset=utf-8' };

test('a webhook address that resolves to a non-public address is refused before connecting', async () => {
  const post = createWebhookPoster({
    http: guardedHttp,
    timeoutMs: DEFAULTS.webhookTimeoutMs,
  });
  const result = await post(
    { url: receiver.url('/guarded'), body, headers },
    new AbortController().signal,
  );
  assert.deepEqual(result, {
    type: 'failed',
    error: 'URL is not allowed: 127.0.0.1 resolves to a non-public address',
  });
  assert.equal(receiver.deliveries.length, 0);
});

test('a receiver slower than the timeout is a retry', async () => {
  receiver.setDelay(400);
  try {
    const post = createWebhookPoster({
      http: openHttp,
      timeoutMs: 150,
    });
    const result = await post(
      { url: receiver.url('/slow'), body, headers },
      new AbortController().signal,
    );
    // Only the timeout writes this error: it, not the receiver's answer, ended the attempt.
    assert.deepEqual(result, { type: 'retry', error: 'timed out after 150 ms' });
    await receiver.waitFor((d) => d.some((x) => x.path === '/slow'));
  } finally {
    receiver.setDelay(0);
  }
});

test('3xx answers are final and redirects are not followed', async () => {
  receiver.script('/moved', [301]);
  const post = createWebhookPoster({
    http: openHttp,
    timeoutMs: DEFAULTS.webhookTimeoutMs,
  });
  const result = await post(
    { url: receiver.url('/moved'), body, headers },
    new AbortController().signal,
  );
  assert.deepEqual(result, { type: 'failed', error: 'receiver answered HTTP 301' });
});

test('429 and 408 are retries; the body arrives byte for byte', async () => {
  receiver.script('/busy', [429, 408]);
  const post = createWebhookPoster({
    http: openHttp,
    timeoutMs: DEFAULTS.webhookTimeoutMs,
  });
  const signal = new AbortController().signal;
  const binary = Buffer.from([0, 255, 128, 10, 13]);
  const send = () => post({ url: receiver.url('/busy'), body: binary, headers }, signal);
  assert.equal((await send()).type, 'retry');
  assert.equal((await send()).type, 'retry');
  assert.deepEqual(await send(), { type: 'delivered', status: 200 });
  assert.deepEqual(receiver.deliveries.at(-1)?.body, binary);
});

test('a connection dropped without an answer is sent once more within the attempt', async () => {
  const post = createWebhookPoster({
    http: openHttp,
    timeoutMs: DEFAULTS.webhookTimeoutMs,
  });
  const signal = new AbortController().signal;
  const seen = (path: string) => receiver.deliveries.filter((d) => d.path === path).length;
  receiver.script('/drop-once', [DROP]);
  assert.deepEqual(await post({ url: receiver.url('/drop-once'), body, headers }, signal), {
    type: 'delivered',
    status: 200,
  });
  assert.equal(seen('/drop-once'), 2);
  // Dropped again: one resend only, then the attempt is a retry for the backoff.
  receiver.script('/drop-always', [DROP, DROP, DROP]);
  const result = await post({ url: receiver.url('/drop-always'), body, headers }, signal);
  assert.equal(result.type, 'retry');
  assert.equal(seen('/drop-always'), 2);
});
