/**
 * The state machine of the description (active ⇄ archived) and the ownership rule on every
 * endpoint, against the real service and a fixture site on loopback (contract 1.5, 29–31).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import {
  type Call,
  ISO_MS,
  type WorkflowBody,
  workflowClient,
} from '../../helpers/workflow-http.js';

let service: TestService;
let site: FixtureSite;
let call: Call;

before(async () => {
  [service, site] = await Promise.all([startService(), startFixtureSite()]);
  call = workflowClient(service.baseUrl, service.apiKey);
});
after(async () => {
  await service.close();
  await site.close();
});

async function create(name = 'wf'): Promise<WorkflowBody> {
  const answer = await call<WorkflowBody>('POST', '/api/workflow/create', {
    body: { name, config: { url: site.url('/page') } },
  });
  assert.equal(answer.status, 200);
  return answer.body;
}

const run = (id: string, as: Call = call) => as('GET', `/api/scraper?workflow_id=${id}`);

function expectError(answer: { status: number; body: unknown }, status: number, error: string) {
  assert.deepEqual({ status: answer.status, body: answer.body }, { status, body: { error } });
}

describe('state table', () => {
  test('a new workflow is active and can be run; a run sets lastRun and creditsSpent', async () => {
    const wf = await create();
    assert.equal(wf.archived, false);
    const answer = await run(wf.id);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-credits-used'), '1');
    const [listed] = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.filter(
      (w) => w.id === wf.id,
    );
    assert.match(listed?.lastRun ?? '', ISO_MS);
    assert.equal(listed?.creditsSpent, 1);
    assert.deepEqual(listed?.config, wf.config, 'a run never changes the saved config');
  });

  test('active → DELETE archive → archived: 200 with the new state, repeat answers the same', async () => {
    const wf = await create();
    const first = await call<WorkflowBody>('DELETE', `/api/workflow/archive/${wf.id}`);
    assert.equal(first.status, 200);
    assert.deepEqual({ ...first.body, updatedAt: wf.updatedAt }, { ...wf, archived: true });
    const again = await call<WorkflowBody>('DELETE', `/api/workflow/archive/${wf.id}/`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    const archivedList = (await call<WorkflowBody[]>('GET', '/api/workflow?archived=true')).body;
    assert.ok(archivedList.some((w) => w.id === wf.id));
  });

  test('archived: a run is refused with 400 and changes nothing', async () => {
    const wf = await create();
    const archived = (await call<WorkflowBody>('DELETE', `/api/workflow/archive/${wf.id}`)).body;
    const hitsBefore = site.hits('/page');
    expectError(await run(wf.id), 400, 'Workflow is archived!');
    assert.equal(site.hits('/page'), hitsBefore, 'the target is never contacted');
    const listed = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
      (w) => w.id === wf.id,
    );
    assert.deepEqual(listed, archived);
    const history = await call<unknown[]>('GET', `/api/workflow/requests/${wf.id}`);
    assert.deepEqual(history.body, [], 'a refused run of an archived workflow is no run');
  });

  test('archived: both edit endpoints answer 400 `Workflow is archived!`', async () => {
    const wf = await create();
    await call('DELETE', `/api/workflow/archive/${wf.id}`);
    expectError(
      await call('PATCH', `/api/workflow/edit/${wf.id}`, { body: { name: 'x' } }),
      400,
      'Workflow is archived!',
    );
    expectError(
      await call('PATCH', `/api/workflow/${wf.id}`, { body: { name: 'x' } }),
      400,
      'Workflow is archived!',
    );
    // The state check comes before the body check (contract 1.2).
    expectError(
      await call('PATCH', `/api/workflow/edit/${wf.id}`, { body: { bogus: 1 } }),
      400,
      'Workflow is archived!',
    );
  });

  test('archived → POST unarchive → active: runnable and editable again; repeat is harmless', async () => {
    const wf = await create();
    await call('DELETE', `/api/workflow/archive/${wf.id}`);
    const first = await call<WorkflowBody>('POST', `/api/workflow/unarchive/${wf.id}`);
    assert.equal(first.status, 200);
    assert.equal(first.body.archived, false);
    const again = await call<WorkflowBody>('POST', `/api/workflow/unarchive/${wf.id}/`, {
      raw: '',
    });
    assert.deepEqual({ status: again.status, body: again.body }, { status: 200, body: first.body });
    assert.equal((await run(wf.id)).status, 200);
    const edited = await call<WorkflowBody>('PATCH', `/api/workflow/edit/${wf.id}`, {
      body: { name: 'back' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.name, 'back');
  });

  test('unarchiving an active workflow answers it unchanged', async () => {
    const wf = await create();
    const answer = await call<WorkflowBody>('POST', `/api/workflow/unarchive/${wf.id}`);
    assert.deepEqual({ status: answer.status, body: answer.body }, { status: 200, body: wf });
  });
});

describe("ownership: another account's workflow is 'Workflow not found!' everywhere", () => {
  test('every endpoint and a run answer 404, and the workflow is untouched', async () => {
    const wf = await create('private');
    const other = await service.addAccount(100);
    const as = workflowClient(service.baseUrl, other.apiKey);
    const attempts: [string, string, unknown?][] = [
      ['PATCH', `/api/workflow/edit/${wf.id}`, { name: 'stolen' }],
      ['PATCH', `/api/workflow/edit/${wf.id}`, { bogus: true }],
      ['PATCH', `/api/workflow/${wf.id}`, { name: 'stolen' }],
      ['DELETE', `/api/workflow/archive/${wf.id}`],
      ['POST', `/api/workflow/unarchive/${wf.id}`],
      ['GET', `/api/workflow/requests/${wf.id}/`],
      ['GET', `/api/workflow/requests/${wf.id}?limit=5000`],
      ['GET', `/api/scraper?workflow_id=${wf.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await as(method, path, body === undefined ? {} : { body });
      assert.deepEqual(
        { status: answer.status, body: answer.body },
        { status: 404, body: { error: 'Workflow not found!' } },
        `${method} ${path}`,
      );
    }
    const list = await as<WorkflowBody[]>('GET', '/api/workflow');
    assert.ok(!list.body.some((w) => w.id === wf.id));
    expectError(
      await as('GET', `/api/workflow?before=${wf.id}`),
      400,
      'Invalid value for before: expected the id of an item of this list',
    );
    const mine = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
      (w) => w.id === wf.id,
    );
    assert.deepEqual(mine, wf);
  });

  test('an unknown id is 404 on every endpoint', async () => {
    const id = '01900000-0000-7000-8000-000000000000';
    const attempts: [string, string, unknown?][] = [
      ['PATCH', `/api/workflow/edit/${id}`, { name: 'x' }],
      ['PATCH', `/api/workflow/${id}`, { name: 'x' }],
      ['DELETE', `/api/workflow/archive/${id}`],
      ['POST', `/api/workflow/unarchive/${id}`],
      ['GET', `/api/workflow/requests/${id}/`],
      ['GET', `/api/scraper?workflow_id=${id}`],
    ];
    for (const [method, path, body] of attempts) {
      expectError(
        await call(method, path, body === undefined ? {} : { body }),
        404,
        'Workflow not found!',
      );
    }
  });

  test('every endpoint needs a valid key first', async () => {
    const wf = await create();
    const attempts: [string, string][] = [
      ['GET', '/api/workflow'],
      ['POST', '/api/workflow/create'],
      ['PATCH', `/api/workflow/edit/${wf.id}`],
      ['PATCH', `/api/workflow/${wf.id}`],
      ['DELETE', `/api/workflow/archive/${wf.id}`],
      ['POST', `/api/workflow/unarchive/${wf.id}`],
      ['GET', `/api/workflow/requests/${wf.id}/`],
    ];
    for (const [method, path] of attempts) {
      expectError(await call(method, path, { key: null }), 403, 'API Key is required!');
      expectError(await call(method, path, { key: 'bad-key' }), 403, 'Invalid API key!');
    }
  });
});
