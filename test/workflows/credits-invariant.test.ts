/**
 * creditsSpent = the sum of the workflow's request records, under 200 concurrent runs of
 * one workflow, on both engines (contract 31; settlement and record share a transaction).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { pgSkipReason } from '../helpers/postgres.js';
import { startService, type TestService } from '../helpers/service.js';
import { type Call, type WorkflowBody, workflowClient } from '../helpers/workflow-http.js';

const RUNS = 200;

let site: FixtureSite;
before(async () => {
  site = await startFixtureSite();
  // A few ms of latency so the runs really overlap.
  site.route('/slowish', (_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>'), 20);
  });
});
after(() => site.close());

interface RecordBody {
  creditsSpent: number;
  statusCode: number;
  createdAt: string;
}

async function runConcurrently(call: Call, runs: number) {
  const created = await call<WorkflowBody>('POST', '/api/workflow/create', {
    body: { name: 'busy', config: { url: site.url('/slowish') } },
  });
  assert.equal(created.status, 200);
  const id = created.body.id;
  const answers = await Promise.all(
    Array.from({ length: runs }, () => call('GET', `/api/scraper?workflow_id=${id}`)),
  );
  const workflow = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
    (w) => w.id === id,
  );
  const records = (await call<RecordBody[]>('GET', `/api/workflow/requests/${id}?limit=1000`)).body;
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  return { workflow, records, statuses };
}

async function balanceOf(service: TestService, apiKey: string): Promise<number> {
  const call = workflowClient(service.baseUrl, apiKey);
  return (await call<{ credits: number }>('GET', '/api/account')).body.credits;
}

function checkInvariant(result: Awaited<ReturnType<typeof runConcurrently>>, runs: number) {
  const { workflow, records, statuses } = result;
  assert.ok(workflow);
  assert.equal(records.length, runs, 'every run that passed validation is a record');
  const sum = records.reduce((total, r) => total + r.creditsSpent, 0);
  assert.equal(workflow.creditsSpent, sum, 'creditsSpent is the sum of the records');
  assert.equal(sum, statuses.get(200) ?? 0, 'one credit per successful run, none otherwise');
  const newest = records
    .map((r) => r.createdAt)
    .sort()
    .at(-1);
  assert.equal(workflow.lastRun, newest, 'lastRun is the newest run');
  const answered = [...statuses.entries()].map(([s, n]) => `${s}:${n}`).join(' ');
  const fromRecords = new Map<number, number>();
  for (const r of records) fromRecords.set(r.statusCode, (fromRecords.get(r.statusCode) ?? 0) + 1);
  assert.deepEqual(fromRecords, statuses, `records keep each answer (${answered})`);
}

for (const engine of ['embedded', 'postgres'] as const) {
  describe(`${engine} engine`, { skip: engine === 'postgres' && pgSkipReason }, () => {
    let service: TestService;
    before(async () => {
      service = await startService({
        postgres: engine === 'postgres',
        concurrencyLimit: 500,
        credits: 1000,
        env: { NODE_CONCURRENCY: '1000' },
      });
    });
    after(() => service.close());

    test(`${RUNS} concurrent runs of one workflow: creditsSpent equals the sum of its records`, async () => {
      const call = workflowClient(service.baseUrl, service.apiKey);
      const result = await runConcurrently(call, RUNS);
      checkInvariant(result, RUNS);
      assert.ok((result.statuses.get(200) ?? 0) >= RUNS / 2, 'most runs succeed');
      assert.equal(
        await balanceOf(service, service.apiKey),
        1000 - (result.workflow?.creditsSpent ?? 0),
      );
    });

    test('runs over the account limit get 429 and are still records', async () => {
      const account = await service.addAccount(1000, 10);
      const call = workflowClient(service.baseUrl, account.apiKey);
      const result = await runConcurrently(call, 60);
      checkInvariant(result, 60);
      assert.ok((result.statuses.get(429) ?? 0) > 0, 'some runs were over the limit');
      assert.equal(
        await balanceOf(service, account.apiKey),
        1000 - (result.workflow?.creditsSpent ?? 0),
      );
    });
  });
}
