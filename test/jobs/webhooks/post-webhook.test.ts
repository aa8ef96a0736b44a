import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { createWebhookPoster } from '../../../src/jobs/webhooks/post-webhook.js';
import { createDispatchers } from '../../../src/scrape/engines/fetch/dispatchers.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

let receiver: WebhookReceiver;
const open = createDispatchers({ allowPrivate: true }, 4);
const guarded = createDispatchers({ allowPrivate: false }, 4);

before(async () => {
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver.close();
  await Promise.all([open.close(), guarded.close()]);
});

const body = Buffer.from('<p>x</p>');
const headers = { 'Content-Type': 'text/html; charset=utf-8' };

test('a webhook address that resolves to a non-public address is refused before connecting', async () => {
  const post = createWebhookPoster({
    guard: { allowPrivate: false },
    dispatcher: guarded.get(null),
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
      guard: { allowPrivate: true },
      dispatcher: open.get(null),
      timeoutMs: 150,
    });
    const started = Date.now();
    const result = await post(
      { url: receiver.url('/slow'), body, headers },
      new AbortController().signal,
    );
    assert.deepEqual(result, { type: 'retry', error: 'timed out after 150 ms' });
    assert.ok(Date.now() - started < 390);
  } finally {
    receiver.setDelay(0);
  }
});

test('3xx answers are final and redirects are not followed', async () => {
  receiver.script('/moved', [301]);
  const post = createWebhookPoster({
    guard: { allowPrivate: true },
    dispatcher: open.get(null),
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
    guard: { allowPrivate: true },
    dispatcher: open.get(null),
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

/** A receiver that drops the connection without an answer for its first `drops` requests. */
async function droppingReceiver(drops: number) {
  let seen = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen += 1;
      if (seen <= drops) req.socket.destroy();
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen: () => seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a connection dropped without an answer is sent once more within the attempt', async () => {
  const post = createWebhookPoster({
    guard: { allowPrivate: true },
    dispatcher: open.get(null),
    timeoutMs: DEFAULTS.webhookTimeoutMs,
  });
  const signal = new AbortController().signal;
  const once = await droppingReceiver(1);
  try {
    assert.deepEqual(await post({ url: once.url, body, headers }, signal), {
      type: 'delivered',
      status: 200,
    });
    assert.equal(once.seen(), 2);
  } finally {
    await once.close();
  }
  // Dropped again: one resend only, then the attempt is a retry for the backoff.
  const always = await droppingReceiver(Number.POSITIVE_INFINITY);
  try {
    const result = await post({ url: always.url, body, headers }, signal);
    assert.equal(result.type, 'retry');
    assert.equal(always.seen(), 2);
  } finally {
    await always.close();
  }
});
