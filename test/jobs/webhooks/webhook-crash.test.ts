/**
 * Deliveries survive a crash (contract 23): 200 webhook requests, `pagegrab serve` killed
 * with SIGKILL while deliveries are in flight, started again on the same DATA_DIR; every
 * request is then delivered (answered 2xx) at least once, and no scrape was charged twice.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { getAccount } from '../../../src/accounts/account-store.js';
import { verifyWebhook } from '../../../src/jobs/webhooks/signature.js';
import { openStore } from '../../../src/store/db.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { createAccountWithCli, type ServeProcess, spawnServe } from './serve-process.js';

const TOTAL = 200;
const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crash-'));
const servers: ServeProcess[] = [];
after(async () => {
  for (const server of servers) if (server.child.exitCode === null) await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a service killed mid-delivery delivers every webhook after it restarts, charging each once', async (t) => {
  const [site, receiver] = await Promise.all([startFixtureSite(), startWebhookReceiver()]);
  t.after(() => Promise.all([site.close(), receiver.close()]));
  const env = {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_LEASE_MS: '1000',
    WEBHOOK_BACKOFF_MS: '100',
    LOG_LEVEL: 'warn',
  };
  const account = await createAccountWithCli(env, 1000);
  // Slow answers keep deliveries in flight when the process dies.
  receiver.setDelay(400);

  const first = await spawnServe(env);
  servers.push(first);
  const ids: string[] = [];
  const enqueue = async (i: number) => {
    const query = new URLSearchParams({
      api_key: account.apiKey,
      url: site.url(`/page?i=${i}`),
      webhook_url: receiver.url('/crash'),
    });
    const res = await fetch(`${first.url}/api/scraper?${query}`);
    assert.equal(res.status, 200);
    ids.push(((await res.json()) as { requestId: string }).requestId);
  };
  for (let i = 0; i < TOTAL; i += 25) {
    await Promise.all(Array.from({ length: 25 }, (_, j) => enqueue(i + j)));
  }
  await receiver.waitFor((all) => all.length >= 10, 60_000);
  const deadline = Date.now() + 10_000;
  while (receiver.inFlight() === 0 && Date.now() < deadline) await sleep(5);
  const inFlightAtKill = receiver.inFlight();
  await first.kill();
  assert.ok(inFlightAtKill > 0, 'deliveries were in flight when the process died');
  const beforeRestart = new Set(receiver.deliveries.filter((d) => d.answered).map(requestIdOf));
  assert.ok(beforeRestart.size < TOTAL, 'the crash left deliveries to do');

  const second = await spawnServe(env);
  servers.push(second);
  const delivered = () =>
    new Set(receiver.deliveries.filter((d) => d.answered && d.status === 200).map(requestIdOf));
  await receiver.waitFor(() => delivered().size >= TOTAL, 90_000);
  await second.stop();

  assert.deepEqual([...delivered()].sort(), [...ids].sort());
  // Signed with the secret exactly as `accounts create --json` printed it (contract 22).
  for (const d of receiver.deliveries) {
    const { 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature } = d.headers;
    assert.ok(verifyWebhook(account.webhookSecret, String(timestamp), d.body, String(signature)));
  }
  const duplicates = receiver.deliveries.length - TOTAL;
  t.diagnostic(
    `in flight at kill: ${inFlightAtKill}; delivered before: ${beforeRestart.size}; ` +
      `POSTs in all: ${receiver.deliveries.length} (${duplicates} repeats)`,
  );

  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    const ledger = await store.db
      .selectFrom('ledger')
      .select(['request_id', 'kind'])
      .where('request_id', 'in', ids)
      .execute();
    const count = (kind: string) => ledger.filter((row) => row.kind === kind).length;
    assert.equal(count('reserve'), TOTAL);
    assert.equal(count('settle'), TOTAL, 'exactly one settle per request');
    assert.equal(count('refund'), 0);
    assert.equal(
      new Set(ledger.filter((r) => r.kind === 'settle').map((r) => r.request_id)).size,
      TOTAL,
    );
    assert.equal((await getAccount(store.db, account.id))?.credits, 1000 - TOTAL);
    const records = await store.db
      .selectFrom('requests')
      .select('webhook')
      .where('id', 'in', ids)
      .execute();
    const states = records.map((r) => (JSON.parse(r.webhook ?? '{}') as { status: string }).status);
    assert.deepEqual(new Set(states), new Set(['delivered']));
    const left = await store.db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'queued')
      .execute();
    assert.equal(left.length, 0);
  } finally {
    await store.close();
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function requestIdOf(d: { headers: Record<string, unknown> }): string {
  return String(d.headers['x-request-id']);
}
