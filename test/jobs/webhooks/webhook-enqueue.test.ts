/**
 * Before a webhook request is queued (contract 21, 17): validation, authorisation, the SSRF
 * guard on the webhook address and the credit reservation answer the caller as usual, and
 * nothing is queued. The service runs with ALLOW_PRIVATE_NETWORKS=false and an account with
 * no credits: every request here is refused before a scrape could start, so the public
 * target address below is only ever classified, never connected to.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type TestService } from '../../helpers/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';

/** A public address literal: the guard classifies it without DNS. */
const PUBLIC_TARGET = 'http://1.1.1.1/page';

let service: TestService;
let receiver: WebhookReceiver;

before(async () => {
  [service, receiver] = await Promise.all([
    startService({ allowPrivateNetworks: false, credits: 0 }),
    startWebhookReceiver(),
  ]);
});
after(async () => {
  await service?.close();
  await receiver?.close();
});

async function scraper(params: Record<string, string>, apiKey = service.apiKey) {
  const query = new URLSearchParams({ api_key: apiKey, ...params });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  assert.match(String(res.headers.get('content-type')), /^application\/json/);
  return { status: res.status, body: (await res.json()) as { error?: string } };
}

async function queuedJobs(): Promise<number> {
  return service.running.store.db
    .selectFrom('jobs')
    .select('id')
    .execute()
    .then((rows) => rows.length);
}

test('a webhook address resolving to a non-public address is refused at enqueue with 400', async () => {
  const cases: Array<[string, string]> = [
    [receiver.url('/hook'), '127.0.0.1'],
    [`http://localhost:${new URL(receiver.origin).port}/hook`, 'localhost'],
    ['http://[::1]:9/hook', '::1'],
    ['http://10.1.2.3/hook', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
  ];
  for (const [webhook, host] of cases) {
    const { status, body } = await scraper({ url: PUBLIC_TARGET, webhook_url: webhook });
    assert.equal(status, 400, webhook);
    assert.deepEqual(body, {
      error: `URL is not allowed: ${host} resolves to a non-public address`,
    });
  }
  assert.equal(await queuedJobs(), 0);
  assert.equal(receiver.deliveries.length, 0);
});

test('with a webhook, 400, 402, 403 and 404 still go to the caller and nothing is queued', async () => {
  const hook = 'http://1.1.1.1/hook';
  const invalid = await scraper({ url: PUBLIC_TARGET, webhook_url: hook, render: 'maybe' });
  assert.equal(invalid.status, 400);
  assert.match(String(invalid.body.error), /^Invalid value for render/);

  const notHttp = await scraper({ url: PUBLIC_TARGET, webhook_url: 'ftp://1.1.1.1/hook' });
  assert.equal(notHttp.status, 400);
  assert.match(String(notHttp.body.error), /webhook_url/);

  assert.deepEqual(await scraper({ url: PUBLIC_TARGET, webhook_url: hook }), {
    status: 402,
    body: { error: 'Insufficient credits to make the request.' },
  });
  assert.deepEqual(await scraper({ url: PUBLIC_TARGET, webhook_url: hook }, 'not-a-key'), {
    status: 403,
    body: { error: 'Invalid API key!' },
  });
  assert.deepEqual(
    await scraper({ workflow_id: '0190c0de-0000-7000-8000-000000000000', webhook_url: hook }),
    { status: 404, body: { error: 'Workflow not found!' } },
  );
  assert.equal(await queuedJobs(), 0);
  const records = await service.running.store.db.selectFrom('requests').select('id').execute();
  assert.equal(records.length, 0, 'no request record for a refused webhook request');
});
