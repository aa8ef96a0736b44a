/**
 * A workflow's runs: the request records (contract 32) and the precedence of a run's
 * parameters (contract 2.8), against the real service and a fixture site on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../../src/store/ids.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import {
  type Call,
  ISO_MS,
  RECORD_FIELDS,
  type WorkflowBody,
  workflowClient,
} from '../../helpers/workflow-http.js';

interface RecordBody {
  id: string;
  workflowId: string;
  url: string;
  status: string;
  statusCode: number;
  creditsSpent: number;
  createdAt: string;
  [field: string]: unknown;
}

let service: TestService;
let site: FixtureSite;
let call: Call;

before(async () => {
  [service, site] = await Promise.all([startService(), startFixtureSite()]);
  call = workflowClient(service.baseUrl, service.apiKey);
  for (const name of ['a', 'b', 'c']) site.html(`/${name}`, `<p>${name}</p>`);
});
after(async () => {
  await service.close();
  await site.close();
});

async function create(config: Record<string, unknown>): Promise<WorkflowBody> {
  const answer = await call<WorkflowBody>('POST', '/api/workflow/create', {
    body: { name: 'runs', config },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const history = (id: string, query = '') =>
  call<RecordBody[]>('GET', `/api/workflow/requests/${id}/${query}`);

/** Old records written straight into the table, one ms apart (oldest first). */
async function seedRecords(workflowId: string, count: number): Promise<string[]> {
  const start = Date.now() - count - 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    account_id: service.accountId,
    workflow_id: workflowId,
    url: site.url(`/seed/${i}`),
    status: 'success' as const,
    status_code: 200,
    target_status: 200,
    output_type: 'html',
    render: 0,
    proxy_type: 'datacenter',
    proxy_country: null,
    credits: 0,
    duration_ms: 3,
    error: null,
    webhook: null,
    created_at: start + i,
  }));
  await service.running.store.db.insertInto('requests').values(rows).execute();
  return rows.map((r) => r.id);
}

describe('GET /api/workflow/requests/{id}/', () => {
  test('a successful run leaves a record of exactly the contract fields', async () => {
    const wf = await create({ url: site.url('/a') });
    const run = await call('GET', `/api/scraper?workflow_id=${wf.id}`);
    assert.equal(run.status, 200);
    const answer = await history(wf.id);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 1);
    const [record] = answer.body;
    assert.deepEqual(Object.keys(record ?? {}).sort(), RECORD_FIELDS);
    assert.equal(record?.id, run.headers.get('x-request-id'), 'the record is the request');
    assert.match(record?.createdAt ?? '', ISO_MS);
    assert.equal(typeof record?.durationMs, 'number');
    assert.deepEqual(
      { ...record, createdAt: undefined, durationMs: undefined, id: undefined },
      {
        id: undefined,
        workflowId: wf.id,
        url: site.url('/a'),
        status: 'success',
        statusCode: 200,
        targetStatus: 200,
        outputType: 'html',
        render: false,
        proxyType: 'datacenter',
        proxyCountry: null,
        creditsSpent: 1,
        durationMs: undefined,
        error: null,
        webhook: null,
        createdAt: undefined,
      },
    );
  });

  test('a failed run is a record with the answer it got, uncharged', async () => {
    const wf = await create({ url: 'http://127.0.0.1:1/' });
    const run = await call<{ error: string }>('GET', `/api/scraper?workflow_id=${wf.id}`);
    assert.equal(run.status, 502);
    const [record] = (await history(wf.id)).body;
    assert.equal(record?.status, 'failed');
    assert.equal(record?.statusCode, 502);
    assert.equal(record?.targetStatus, null);
    assert.equal(record?.creditsSpent, 0);
    assert.equal(record?.error, run.body.error);
  });

  test('a caller that hangs up leaves a record that says so, uncharged', async () => {
    const wf = await create({ url: site.url('/slow?ms=5000') });
    const hangUp = fetch(`${service.baseUrl}/api/scraper?workflow_id=${wf.id}`, {
      headers: { 'X-API-Key': service.apiKey },
      signal: AbortSignal.timeout(300),
    });
    await assert.rejects(hangUp);
    await until(async () => (await history(wf.id)).body.length > 0);
    const [record] = (await history(wf.id)).body;
    assert.equal(record?.status, 'failed');
    assert.equal(record?.statusCode, 499);
    assert.equal(record?.error, 'Client closed the connection');
    assert.equal(record?.creditsSpent, 0);
  });

  test('a request refused for its parameters is not a run', async () => {
    const wf = await create({ url: site.url('/a') });
    const bad = await call('GET', `/api/scraper?workflow_id=${wf.id}&render=maybe`);
    assert.equal(bad.status, 400);
    assert.deepEqual((await history(wf.id)).body, []);
  });

  test('newest first, 100 by default, limit 1..1000, and paging with before', async () => {
    const wf = await create({ url: site.url('/a') });
    const ids = (await seedRecords(wf.id, 150)).reverse();
    const byDefault = await history(wf.id);
    assert.deepEqual(
      byDefault.body.map((r) => r.id),
      ids.slice(0, 100),
    );
    const all = await history(wf.id, '?limit=1000');
    assert.deepEqual(
      all.body.map((r) => r.id),
      ids,
    );
    const one = await call<RecordBody[]>('GET', `/api/workflow/requests/${wf.id}?limit=1`);
    assert.deepEqual(
      one.body.map((r) => r.id),
      ids.slice(0, 1),
    );
    const page = await history(wf.id, `?limit=20&before=${ids[99]}`);
    assert.deepEqual(
      page.body.map((r) => r.id),
      ids.slice(100, 120),
    );
    for (const limit of ['0', '1001', 'abc', '-1', '1.5']) {
      const answer = await history(wf.id, `?limit=${limit}`);
      assert.deepEqual(
        { status: answer.status, body: answer.body },
        {
          status: 400,
          body: { error: 'Invalid value for limit: expected an integer from 1 to 1000' },
        },
        limit,
      );
    }
  });

  test('records of an archived workflow stay readable', async () => {
    const wf = await create({ url: site.url('/a') });
    await call('GET', `/api/scraper?workflow_id=${wf.id}`);
    const before = (await history(wf.id)).body;
    assert.equal(before.length, 1);
    await call('DELETE', `/api/workflow/archive/${wf.id}`);
    const after = await history(wf.id);
    assert.equal(after.status, 200);
    assert.deepEqual(after.body, before);
  });
});

describe('precedence of a run: defaults < saved config < config < query', () => {
  test('each layer overrides the one below, and the saved workflow never changes', async () => {
    const wf = await create({ url: site.url('/a'), markdown: true });
    const configParam = encodeURIComponent(JSON.stringify({ url: site.url('/b') }));
    const base = `/api/scraper?workflow_id=${wf.id}`;

    const saved = await call('GET', base);
    assert.equal(saved.headers.get('x-target-url'), site.url('/a'));
    assert.match(saved.headers.get('content-type') ?? '', /^text\/markdown/);

    const config = await call('GET', `${base}&config=${configParam}`);
    assert.equal(config.headers.get('x-target-url'), site.url('/b'));

    const query = await call(
      'GET',
      `${base}&config=${configParam}&url=${encodeURIComponent(site.url('/c'))}&markdown=false`,
    );
    assert.equal(query.headers.get('x-target-url'), site.url('/c'));
    assert.match(query.headers.get('content-type') ?? '', /^text\/html/);

    const records = (await history(wf.id)).body;
    assert.deepEqual(
      records.map((r) => [r.url, r.outputType]),
      [
        [site.url('/c'), 'html'],
        [site.url('/b'), 'markdown'],
        [site.url('/a'), 'markdown'],
      ],
    );
    const listed = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
      (w) => w.id === wf.id,
    );
    assert.deepEqual(listed?.config, wf.config);
    assert.equal(listed?.creditsSpent, 3);
  });
});
