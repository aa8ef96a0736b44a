/**
 * Webhook delivery against the real service (contract 21–23): a fixture site as the target
 * and a receiver, both on 127.0.0.1. Backoff base 50 ms so retries take moments.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getAccount } from '../../../src/accounts/account-store.js';
import { verifyWebhook } from '../../../src/jobs/webhooks/signature.js';
import type { WebhookState } from '../../../src/store/run-records.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { freePort } from '../../helpers/free-port.js';
import { startService, type TestService } from '../../helpers/service.js';
import {
  type Delivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver.js';

let service: TestService;
let site: FixtureSite;
let receiver: WebhookReceiver;

before(async () => {
  [service, site, receiver] = await Promise.all([
    startService({ env: { WEBHOOK_BACKOFF_MS: '50' } }),
    startFixtureSite(),
    startWebhookReceiver(),
  ]);
  site.html(
    '/article',
    '<html><head><title>A</title></head><body><nav>menu</nav><article><h1>Title</h1>' +
      '<p>Some words of a paragraph that is long enough to be content.</p></article></body></html>',
  );
});
after(async () => {
  await service?.close();
  await site?.close();
  await receiver?.close();
});

function scraperUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({ api_key: service.apiKey, ...params });
  return `${service.baseUrl}/api/scraper?${query}`;
}

async function direct(params: Record<string, string>) {
  const res = await fetch(scraperUrl(params));
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** Asks for a webhook delivery to `path` on the receiver; returns the request id. */
async function viaWebhook(params: Record<string, string>, path: string): Promise<string> {
  const res = await fetch(scraperUrl({ ...params, webhook_url: receiver.url(path) }));
  const body = (await res.json()) as { status: string; message: string; requestId: string };
  assert.equal(res.status, 200);
  assert.equal(body.status, 'ok');
  assert.equal(body.message, 'Webhook sent successfully');
  assert.match(body.requestId, /^[0-9a-f-]{36}$/);
  // One id for the scrape: the answer's header, its body, the delivery and the record.
  assert.equal(res.headers.get('x-request-id'), body.requestId);
  return body.requestId;
}

async function deliveredTo(path: string, count = 1, timeoutMs = 15_000): Promise<Delivery[]> {
  await receiver.waitFor((all) => all.filter((d) => d.path === path).length >= count, timeoutMs);
  return receiver.deliveries.filter((d) => d.path === path);
}

async function recordOf(requestId: string) {
  return service.running.store.db
    .selectFrom('requests')
    .selectAll()
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow();
}

/** Waits until the record's webhook state leaves `pending`. */
async function finalState(requestId: string): Promise<WebhookState> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const row = await recordOf(requestId);
    const state = JSON.parse(row.webhook ?? 'null') as WebhookState;
    if (state.status !== 'pending') return state;
    if (Date.now() > deadline) throw new Error(`webhook of ${requestId} still pending`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function assertSigned(delivery: Delivery) {
  const timestamp = String(delivery.headers['x-webhook-timestamp']);
  assert.match(timestamp, /^\d+$/);
  assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 60);
  const signature = String(delivery.headers['x-webhook-signature']);
  assert.match(signature, /^sha256=[0-9a-f]{64}$/);
  assert.ok(verifyWebhook(service.webhookSecret, timestamp, delivery.body, signature));
  assert.equal(
    verifyWebhook(`${service.webhookSecret}x`, timestamp, delivery.body, signature),
    false,
  );
}

describe('a successful scrape is delivered as the direct call would have answered', () => {
  for (const [name, params] of [
    ['HTML', { url: '' }],
    ['Markdown', { url: '', markdown: 'true' }],
  ] as const) {
    test(`${name}: same bytes and content type, signed, with the request's headers`, async () => {
      const url = site.url('/article');
      const path = `/ok-${name}`;
      const { res, body } = await direct({ ...params, url });
      assert.equal(res.status, 200);
      const requestId = await viaWebhook({ ...params, url }, path);
      const [delivery] = await deliveredTo(path);
      assert.ok(delivery);
      assert.equal(delivery.headers['content-type'], res.headers.get('content-type'));
      assert.deepEqual(delivery.body, body);
      assert.equal(delivery.headers['x-request-id'], requestId);
      assert.equal(delivery.headers['x-scrape-status'], 'success');
      assert.equal(delivery.headers['x-target-status'], '200');
      assert.equal(delivery.headers['x-target-url'], url);
      assert.equal(delivery.headers['x-workflow-id'], undefined);
      assertSigned(delivery);
      const state = await finalState(requestId);
      assert.deepEqual(state, {
        url: receiver.url(path),
        status: 'delivered',
        attempts: 1,
        lastError: null,
      });
      const record = await recordOf(requestId);
      assert.equal(record.status, 'success');
      assert.equal(Number(record.credits), 1);
    });
  }

  test('PNG screenshot (real Chromium): same content type and image', async () => {
    const params = { url: site.url('/article'), render: 'true', screenshot: 'true' };
    const { res, body } = await direct(params);
    assert.equal(res.status, 200, body.toString());
    const requestId = await viaWebhook(params, '/png');
    const [delivery] = await deliveredTo('/png', 1, 60_000);
    assert.ok(delivery);
    assert.equal(delivery.headers['content-type'], 'image/png');
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.deepEqual(delivery.body.subarray(0, 8), Buffer.from('89504e470d0a1a0a', 'hex'));
    // IHDR width and height: the same viewport as the direct call.
    assert.deepEqual(delivery.body.subarray(16, 24), body.subarray(16, 24));
    assert.deepEqual(delivery.body, body, 'a static page renders to the same bytes');
    assert.equal(delivery.headers['x-request-id'], requestId);
    assertSigned(delivery);
  });
});

test('a failed scrape delivers the JSON error while the caller got ok; nothing is charged', async () => {
  const url = `http://127.0.0.1:${await freePort()}/`;
  const { res, body } = await direct({ url });
  assert.equal(res.status, 502);
  const before = (await recordOfAccount()).credits;
  const requestId = await viaWebhook({ url }, '/failed-scrape');
  const [delivery] = await deliveredTo('/failed-scrape');
  assert.ok(delivery);
  assert.equal(delivery.headers['content-type'], res.headers.get('content-type'));
  assert.match(String(delivery.headers['content-type']), /^application\/json/);
  assert.deepEqual(delivery.body, body);
  assert.match(delivery.body.toString(), /^\{"error":"Failed to fetch the page: /);
  assert.equal(delivery.headers['x-scrape-status'], 'failed');
  assert.equal(delivery.headers['x-target-status'], undefined);
  assert.equal(delivery.headers['x-target-url'], url);
  assertSigned(delivery);
  assert.equal((await finalState(requestId)).status, 'delivered');
  const record = await recordOf(requestId);
  assert.equal(record.status, 'failed');
  assert.equal(record.status_code, 502);
  assert.equal((await recordOfAccount()).credits, before);
});

async function recordOfAccount() {
  const account = await getAccount(service.running.store.db, service.accountId);
  assert.ok(account);
  return account;
}

test('a receiver failing twice with 500 gets the third attempt, after a backoff', async () => {
  receiver.script('/flaky', [500, 503]);
  const requestId = await viaWebhook({ url: site.url('/article') }, '/flaky');
  const deliveries = await deliveredTo('/flaky', 3);
  assert.deepEqual(
    deliveries.map((d) => d.status),
    [500, 503, 200],
  );
  const [first, second, third] = deliveries as [Delivery, Delivery, Delivery];
  assert.ok(second.at - first.at >= 35, 'waited about the 50 ms base');
  assert.ok(third.at - second.at >= 75, 'waited about twice the base');
  assert.deepEqual(first.body, third.body);
  assert.deepEqual(await finalState(requestId), {
    url: receiver.url('/flaky'),
    status: 'delivered',
    attempts: 3,
    lastError: null,
  });
  const settles = await service.running.store.db
    .selectFrom('ledger')
    .select('kind')
    .where('request_id', '=', requestId)
    .where('kind', '=', 'settle')
    .execute();
  assert.equal(settles.length, 1, 'retried deliveries never re-run the scrape');
});

test('/metrics counts delivery attempts by outcome', async () => {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const count = (outcome: string) =>
    Number(
      new RegExp(`^pagegrab_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
        text,
      )?.[1] ?? 0,
    );
  // The tests above delivered several and retried /flaky twice.
  assert.ok(count('delivered') >= 3, text);
  assert.ok(count('retry') >= 2, text);
});

test('a receiver answering 400 is not retried and the record says failed', async () => {
  receiver.script('/refuses', [400]);
  const requestId = await viaWebhook({ url: site.url('/article') }, '/refuses');
  await deliveredTo('/refuses');
  const state = await finalState(requestId);
  assert.deepEqual(state, {
    url: receiver.url('/refuses'),
    status: 'failed',
    attempts: 1,
    lastError: 'receiver answered HTTP 400',
  });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(receiver.deliveries.filter((d) => d.path === '/refuses').length, 1);
  const record = await recordOf(requestId);
  assert.equal(record.status, 'success', 'the scrape itself succeeded');
  assert.equal(Number(record.credits), 1, 'and is charged whatever the delivery did');
});

test('an unreachable receiver is retried 8 times, then the delivery is failed; the scrape stays charged', async () => {
  const url = `http://127.0.0.1:${await freePort()}/hook`;
  const creditsBefore = (await recordOfAccount()).credits;
  const res = await fetch(scraperUrl({ url: site.url('/article'), webhook_url: url }));
  const { requestId } = (await res.json()) as { requestId: string };
  const settled = async () =>
    (
      await service.running.store.db
        .selectFrom('ledger')
        .select('kind')
        .where('request_id', '=', requestId)
        .where('kind', 'in', ['settle', 'refund'])
        .execute()
    ).map((row) => row.kind);
  // 50 ms base: waits of ~50..3200 ms, about 6.4 s in all.
  const deadline = Date.now() + 20_000;
  let state: WebhookState;
  let endsWhileRetrying: string[] | null = null;
  for (;;) {
    const row = await recordOf(requestId);
    state = JSON.parse(row.webhook ?? 'null') as WebhookState;
    if (state.status === 'pending' && state.attempts >= 1) endsWhileRetrying ??= await settled();
    if (state.status !== 'pending' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(state.status, 'failed');
  assert.equal(state.attempts, 8);
  assert.match(String(state.lastError), /ECONNREFUSED/);
  // Credits follow the scrape, not the delivery: settled before the first retry, kept after.
  assert.deepEqual(endsWhileRetrying, ['settle']);
  assert.deepEqual(await settled(), ['settle']);
  assert.equal(Number((await recordOf(requestId)).credits), 1);
  assert.equal((await recordOfAccount()).credits, creditsBefore - 1);
});

test('a workflow run delivers with X-Workflow-Id and its history shows the webhook state', async () => {
  const create = await fetch(`${service.baseUrl}/api/workflow/create?api_key=${service.apiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'hooked',
      config: { url: site.url('/article'), webhook_url: receiver.url('/workflow') },
    }),
  });
  assert.equal(create.status, 200);
  const workflow = (await create.json()) as { id: string };
  const run = await fetch(scraperUrl({ workflow_id: workflow.id }));
  const { requestId } = (await run.json()) as { requestId: string };
  const [delivery] = await deliveredTo('/workflow');
  assert.equal(delivery?.headers['x-workflow-id'], workflow.id);
  assert.equal(delivery?.headers['x-request-id'], requestId);
  await finalState(requestId);
  const history = await fetch(
    `${service.baseUrl}/api/workflow/requests/${workflow.id}/?api_key=${service.apiKey}`,
  );
  const records = (await history.json()) as Array<{ id: string; webhook: WebhookState }>;
  assert.deepEqual(records[0]?.webhook, {
    url: receiver.url('/workflow'),
    status: 'delivered',
    attempts: 1,
    lastError: null,
  });
  assert.equal(records[0]?.id, requestId);

  // A run whose receiver refuses: the history shows the failed delivery and why.
  receiver.script('/workflow-refuses', [410]);
  const refused = await fetch(
    scraperUrl({ workflow_id: workflow.id, webhook_url: receiver.url('/workflow-refuses') }),
  );
  const second = ((await refused.json()) as { requestId: string }).requestId;
  await finalState(second);
  const laterHistory = await fetch(
    `${service.baseUrl}/api/workflow/requests/${workflow.id}/?api_key=${service.apiKey}`,
  );
  const [latest] = (await laterHistory.json()) as Array<{ id: string; webhook: WebhookState }>;
  assert.equal(latest?.id, second);
  assert.deepEqual(latest?.webhook, {
    url: receiver.url('/workflow-refuses'),
    status: 'failed',
    attempts: 1,
    lastError: 'receiver answered HTTP 410',
  });
});
