/**
 * Scheduled runs through the real service (its composition root, SQLite and PostgreSQL),
 * with second-level timing: SCHEDULE_ALLOW_SECONDS lets tests write a seconds field. A run
 * is the scraper request with `workflow_id`: credits, the record (marked with its due time),
 * the signed webhook; a 402 is recorded and the schedule goes on until N consecutive
 * failures disable it, saying why; an archived workflow's due times pass without runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getAccount } from '../../../src/accounts/account-store.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { pgSkipReason } from '../../helpers/postgres.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { type Call, RECORD_FIELDS, workflowClient } from '../../helpers/workflow-http.js';

interface RecordBody {
  id: string;
  status: string;
  statusCode: number;
  creditsSpent: number;
  error: string | null;
  webhook: { status: string } | null;
  createdAt: string;
  schedule?: { scheduledFor: string; catchUp: boolean };
}

interface ScheduleBody {
  enabled: boolean;
  nextRuns: string[];
  consecutiveFailures: number;
  disabledReason: string | null;
  lastRun: { scheduledFor: string; requestId: string; status: string } | null;
}

const FAILURES = 3;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`scheduled runs (${engine})`, {
    skip: engine === 'postgres' ? pgSkipReason : false,
  }, () => {
    let service: TestService;
    let site: FixtureSite;
    let receiver: WebhookReceiver;
    let call: Call;

    before(async () => {
      [service, site, receiver] = await Promise.all([
        startService({
          postgres: engine === 'postgres',
          env: {
            SCHEDULE_ALLOW_SECONDS: 'true',
            SCHEDULE_MIN_INTERVAL_MS: '1000',
            SCHEDULE_POLL_MS: '100',
            SCHEDULE_DISABLE_AFTER_FAILURES: String(FAILURES),
            JOB_POLL_MS: '50',
          },
        }),
        startFixtureSite(),
        startWebhookReceiver(),
      ]);
      call = workflowClient(service.baseUrl, service.apiKey);
      site.html('/price', '<p>42 EUR</p>');
    });
    after(async () => {
      await service.close();
      await Promise.all([site.close(), receiver.close()]);
    });

    async function create(client: Call, config: Record<string, unknown>): Promise<string> {
      const answer = await client<{ id: string }>('POST', '/api/workflow/create', {
        body: { name: 'every second', config },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.id;
    }
    const pendingJobs = () =>
      service.running.store.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'queued')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    const history = async (client: Call, id: string) =>
      (await client<RecordBody[]>('GET', `/api/workflow/requests/${id}/?limit=1000`)).body;
    const schedule = (client: Call, id: string, body?: unknown) =>
      client<ScheduleBody>(body ? 'PUT' : 'GET', `/api/workflow/${id}/schedule`, {
        ...(body ? { body } : {}),
      });

    test('a due time runs as a workflow_id request: charged, recorded as scheduled, delivered', async () => {
      const id = await create(call, {
        url: site.url('/price'),
        webhook_url: receiver.url('/scheduled'),
      });
      const before = (await getAccount(service.running.store.db, service.accountId))?.credits ?? 0;
      const put = await schedule(call, id, { cron: '* * * * * *' });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      await until(async () => (await history(call, id)).length >= 2, 30_000);
      await schedule(call, id, { enabled: false });
      await until(
        async () => (await history(call, id)).every((r) => r.webhook?.status === 'delivered'),
        30_000,
      );
      // A run enqueued before the pause may still be finishing.
      await until(async () => (await pendingJobs()) === 0, 30_000);
      const records = await history(call, id);

      for (const record of records) {
        assert.equal(record.status, 'success');
        assert.equal(record.creditsSpent, 1);
        assert.deepEqual(Object.keys(record).sort(), [...RECORD_FIELDS, 'schedule'].sort());
        assert.equal(record.schedule?.catchUp, false);
        assert.equal(new Date(record.schedule?.scheduledFor ?? '').getUTCMilliseconds(), 0);
      }
      const dueTimes = records.map((r) => r.schedule?.scheduledFor);
      assert.equal(new Set(dueTimes).size, records.length, 'one record per due time');
      // Each run was delivered, signed, under its request id.
      const delivered = receiver.deliveries.filter((d) => d.path === '/scheduled');
      assert.deepEqual(
        new Set(delivered.map((d) => d.headers['x-request-id'])),
        new Set(records.map((r) => r.id)),
      );
      assert.equal(receiver.badSignatures(), 0);
      const credits = (await getAccount(service.running.store.db, service.accountId))?.credits;
      assert.equal(credits, before - records.length, 'each run charged once');
      assert.equal(site.hits('/price'), records.length);
      const shown = await schedule(call, id);
      assert.equal(shown.body.lastRun?.status, 'success');
      assert.ok(records.some((r) => r.id === shown.body.lastRun?.requestId));
    });

    test('a 402 is recorded and the schedule goes on; N failures in a row disable it, saying why', async () => {
      const poor = await service.addAccount(0);
      const client = workflowClient(service.baseUrl, poor.apiKey);
      const id = await create(client, { url: site.url('/price') });
      await schedule(client, id, { cron: '* * * * * *' });
      await until(async () => !(await schedule(client, id)).body.enabled, 30_000);
      const shown = (await schedule(client, id)).body;
      assert.equal(shown.consecutiveFailures, FAILURES);
      assert.equal(
        shown.disabledReason,
        `Disabled after ${FAILURES} consecutive failed runs (last: 402 Insufficient credits to make the request.)`,
      );
      assert.deepEqual(shown.nextRuns, []);
      const records = await history(client, id);
      assert.equal(records.length, FAILURES, 'runs went on after the first 402, then stopped');
      for (const record of records) {
        assert.equal(record.status, 'failed');
        assert.equal(record.statusCode, 402);
        assert.equal(record.error, 'Insufficient credits to make the request.');
        assert.ok(record.schedule);
      }
      // Nothing runs while disabled; re-enabling clears the reason and the count.
      const again = await schedule(client, id, { enabled: true });
      assert.equal(again.body.disabledReason, null);
      assert.equal(again.body.consecutiveFailures, 0);
      await schedule(client, id, { enabled: false });
    });

    test('an archived workflow is skipped; unarchived, it replays nothing it missed', async () => {
      const id = await create(call, { url: site.url('/price') });
      await schedule(call, id, { cron: '* * * * * *' });
      await until(async () => (await history(call, id)).length >= 1, 30_000);
      await call('DELETE', `/api/workflow/archive/${id}`);
      const archivedAt = Date.now();
      // Let at least three due times pass while archived.
      await until(() => Date.now() > archivedAt + 3500, 10_000);
      const unarchivedAt = Date.now();
      await call('POST', `/api/workflow/unarchive/${id}`);
      await until(
        async () =>
          (await history(call, id)).some(
            (r) => Date.parse(r.schedule?.scheduledFor ?? '') > unarchivedAt,
          ),
        30_000,
      );
      await schedule(call, id, { enabled: false });
      const during = (await history(call, id)).filter((r) => {
        const due = Date.parse(r.schedule?.scheduledFor ?? '');
        // Runs enqueued just before the archive may still end; none was due well inside it.
        return due > archivedAt + 1000 && due < unarchivedAt;
      });
      assert.deepEqual(during, []);
    });
  });
}
