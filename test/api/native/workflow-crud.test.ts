/**
 * Workflow endpoints against the real service: create, list, edit (merge patch), rename,
 * with their exact texts (contract 24–29).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../../helpers/service.js';
import {
  type Call,
  ISO_MS,
  WORKFLOW_FIELDS,
  type WorkflowBody,
  workflowClient,
} from '../../helpers/workflow-http.js';

const URL_A = 'http://127.0.0.1:9/a';
let service: TestService;
let call: Call;

before(async () => {
  service = await startService();
  call = workflowClient(service.baseUrl, service.apiKey);
});
after(() => service.close());

async function create(name: string, config: Record<string, unknown> = { url: URL_A }) {
  const answer = await call<WorkflowBody>('POST', '/api/workflow/create', {
    body: { name, config },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

function expectError(answer: { status: number; body: unknown }, status: number, error: string) {
  assert.deepEqual({ status: answer.status, body: answer.body }, { status, body: { error } });
}

describe('POST /api/workflow/create', () => {
  test('answers the nine fields of an active, never-run workflow owned by the caller', async () => {
    const answer = await call<WorkflowBody>('POST', '/api/workflow/create', {
      body: { name: 'First', config: { url: URL_A } },
    });
    assert.equal(answer.status, 200);
    const wf = answer.body;
    assert.deepEqual(Object.keys(wf).sort(), WORKFLOW_FIELDS);
    assert.equal(wf.userId, service.accountId);
    assert.equal(wf.name, 'First');
    assert.deepEqual(wf.config, { url: URL_A, render: false });
    assert.equal(wf.archived, false);
    assert.equal(wf.creditsSpent, 0);
    assert.equal(wf.lastRun, null);
    assert.match(wf.createdAt, ISO_MS);
    assert.equal(wf.updatedAt, wf.createdAt);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  });

  test('accepts the trailing slash form', async () => {
    const answer = await call('POST', '/api/workflow/create/', {
      body: { name: 'slash', config: { url: URL_A } },
    });
    assert.equal(answer.status, 200);
  });

  test('stores normalised values and drops api_key entries', async () => {
    const wf = await create('norm', {
      url: URL_A,
      render: 'true',
      window_width: 800,
      block_ads: '1',
      instructions: '[{"wait":"#x"}]',
      api_key: 'secret',
      apiKey: 'secret',
    });
    assert.deepEqual(wf.config, {
      url: URL_A,
      render: true,
      window_width: 800,
      block_ads: true,
      instructions: [{ wait: '#x' }],
    });
  });

  test('trims the name and accepts 100 characters, refuses 101', async () => {
    assert.equal((await create(`  ${'n'.repeat(100)}  `)).name, 'n'.repeat(100));
    const long = await call('POST', '/api/workflow/create', {
      body: { name: 'n'.repeat(101), config: { url: URL_A } },
    });
    expectError(long, 400, 'Name must be a string of 1 to 100 characters');
  });

  test('names need not be unique', async () => {
    const [a, b] = [await create('twin'), await create('twin')];
    assert.notEqual(a.id, b.id);
  });

  test('refuses a missing, blank or non-string name and a missing config', async () => {
    const post = (body: unknown) => call('POST', '/api/workflow/create', { body });
    expectError(await post({ config: { url: URL_A } }), 400, 'Name is required!');
    expectError(await post({ name: null, config: { url: URL_A } }), 400, 'Name is required!');
    expectError(
      await post({ name: '   ', config: { url: URL_A } }),
      400,
      'Name must be a string of 1 to 100 characters',
    );
    expectError(
      await post({ name: 5, config: { url: URL_A } }),
      400,
      'Name must be a string of 1 to 100 characters',
    );
    expectError(await post({ name: 'x' }), 400, 'Config is required!');
    expectError(await post({}), 400, 'Name is required!');
  });

  test('refuses an invalid config with its first problem', async () => {
    const post = (config: unknown) =>
      call('POST', '/api/workflow/create', { body: { name: 'x', config } });
    expectError(await post({ url: URL_A, colour: 'red' }), 400, 'Unknown config field: colour');
    expectError(await post({ render: true }), 400, 'URL is required!');
    expectError(
      await post({ url: URL_A, workflow_id: 'w' }),
      400,
      'Unknown config field: workflow_id',
    );
    const bad = await post({ url: URL_A, render: 'maybe' });
    expectError(bad, 400, 'Invalid value for render: expected true or false');
    const screenshot = await post({ url: URL_A, screenshot: true });
    expectError(screenshot, 400, 'screenshot requires render=true');
  });

  test('a body that is not JSON is a JSON 400, a non-JSON type a 415', async () => {
    const broken = await call('POST', '/api/workflow/create', { raw: '{"name":' });
    assert.equal(broken.status, 400);
    assert.match((broken.body as { error: string }).error, /^Request body is not valid JSON/);
    const form = await call('POST', '/api/workflow/create', {
      raw: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 415);
    assert.match((form.body as { error: string }).error, /must be JSON/);
    const text = await call('POST', '/api/workflow/create', {
      raw: 'name=x',
      contentType: 'text/plain',
    });
    expectError(text, 400, 'Request body must be a JSON object');
    const array = await call('POST', '/api/workflow/create', { body: [1] });
    expectError(array, 400, 'Request body must be a JSON object');
  });

  test('needs a valid key before anything else', async () => {
    const none = await call('POST', '/api/workflow/create', { key: null, raw: '{bad' });
    expectError(none, 403, 'API Key is required!');
    const wrong = await call('POST', '/api/workflow/create', { key: 'nope', body: {} });
    expectError(wrong, 403, 'Invalid API key!');
  });
});

describe('GET /api/workflow', () => {
  test("lists the caller's workflows newest first, active and archived, filterable", async () => {
    const other = await service.addAccount(10);
    const otherCall = workflowClient(service.baseUrl, other.apiKey);
    const mine = [await create('l1'), await create('l2'), await create('l3')];
    await call('DELETE', `/api/workflow/archive/${mine[1]?.id}`);
    const all = await call<WorkflowBody[]>('GET', '/api/workflow');
    assert.equal(all.status, 200);
    const ids = all.body.map((w) => w.id);
    assert.deepEqual(
      ids.slice(0, 3),
      mine.map((w) => w.id).reverse(),
      'newest first, archived included',
    );
    const created = all.body.map((w) => w.createdAt);
    assert.deepEqual(created, [...created].sort().reverse());
    for (const wf of all.body) assert.deepEqual(Object.keys(wf).sort(), WORKFLOW_FIELDS);

    const archived = await call<WorkflowBody[]>('GET', '/api/workflow?archived=true');
    assert.deepEqual(
      archived.body.map((w) => w.id),
      [mine[1]?.id],
    );
    const active = await call<WorkflowBody[]>('GET', '/api/workflow/?archived=false');
    assert.ok(active.body.every((w) => !w.archived));
    assert.equal(active.body.length, all.body.length - 1);

    const theirs = await otherCall<WorkflowBody[]>('GET', '/api/workflow');
    assert.deepEqual(theirs.body, []);
  });

  test('pages with limit and before (an addition; without them the list is complete)', async () => {
    const all = (await call<WorkflowBody[]>('GET', '/api/workflow')).body;
    assert.ok(all.length >= 4);
    const first = await call<WorkflowBody[]>('GET', '/api/workflow?limit=2');
    assert.deepEqual(
      first.body.map((w) => w.id),
      all.slice(0, 2).map((w) => w.id),
    );
    const next = await call<WorkflowBody[]>(`GET`, `/api/workflow?limit=2&before=${all[1]?.id}`);
    assert.deepEqual(
      next.body.map((w) => w.id),
      all.slice(2, 4).map((w) => w.id),
    );
  });

  test('refuses bad filter values and a key that is invalid', async () => {
    expectError(
      await call('GET', '/api/workflow?archived=maybe'),
      400,
      'Invalid value for archived: expected true or false',
    );
    expectError(
      await call('GET', '/api/workflow?limit=0'),
      400,
      'Invalid value for limit: expected an integer from 1 to 10000',
    );
    expectError(
      await call('GET', '/api/workflow?before=nope'),
      400,
      'Invalid value for before: expected the id of an item of this list',
    );
    expectError(await call('GET', '/api/workflow', { key: 'wrong' }), 403, 'Invalid API key!');
    expectError(await call('GET', '/api/workflow', { key: null }), 403, 'API Key is required!');
  });
});

describe('PATCH /api/workflow/edit/{id}', () => {
  test('renames alone, leaving the config; updatedAt moves, createdAt stays', async () => {
    const wf = await create('before', { url: URL_A, markdown: true });
    await new Promise((r) => setTimeout(r, 5));
    const answer = await call<WorkflowBody>('PATCH', `/api/workflow/edit/${wf.id}`, {
      body: { name: ' after ' },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.name, 'after');
    assert.deepEqual(answer.body.config, wf.config);
    assert.equal(answer.body.createdAt, wf.createdAt);
    assert.ok(answer.body.updatedAt > wf.updatedAt);
    assert.deepEqual(Object.keys(answer.body).sort(), WORKFLOW_FIELDS);
  });

  test('applies config as an RFC 7396 merge patch and stores the result', async () => {
    const wf = await create('merge', {
      url: URL_A,
      render: true,
      screenshot: true,
      window_width: 800,
      instructions: [{ wait: '#a' }],
    });
    const answer = await call<WorkflowBody>('PATCH', `/api/workflow/edit/${wf.id}/`, {
      body: {
        config: { screenshot: null, markdown: 'true', instructions: [{ click: '#b' }] },
        name: 'merged',
      },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const expected = {
      url: URL_A,
      render: true,
      window_width: 800,
      markdown: true,
      instructions: [{ click: '#b' }],
    };
    assert.deepEqual(answer.body.config, expected);
    const listed = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
      (w) => w.id === wf.id,
    );
    assert.deepEqual(listed?.config, expected);
    assert.equal(listed?.name, 'merged');
  });

  test('removing render with null falls back to false', async () => {
    const wf = await create('r', { url: URL_A, render: true });
    const answer = await call<WorkflowBody>('PATCH', `/api/workflow/edit/${wf.id}`, {
      body: { config: { render: null } },
    });
    assert.deepEqual(answer.body.config, { url: URL_A, render: false });
  });

  test('a patch whose result is invalid is refused and changes nothing', async () => {
    const wf = await create('invalid', { url: URL_A, render: true, screenshot: true });
    const edit = (body: unknown) => call('PATCH', `/api/workflow/edit/${wf.id}`, { body });
    expectError(await edit({ config: { render: false } }), 400, 'screenshot requires render=true');
    expectError(await edit({ config: { url: null } }), 400, 'URL is required!');
    expectError(await edit({ config: { nope: 1 } }), 400, 'Unknown config field: nope');
    expectError(await edit({ config: null }), 400, 'Config is required!');
    expectError(
      await edit({ name: '', config: { render: true } }),
      400,
      'Name must be a string of 1 to 100 characters',
    );
    const listed = (await call<WorkflowBody[]>('GET', '/api/workflow')).body.find(
      (w) => w.id === wf.id,
    );
    assert.deepEqual(listed, wf);
  });

  test('refuses any field but name and config, and a body with neither', async () => {
    const wf = await create('fields');
    const edit = (options: Parameters<Call>[2]) =>
      call('PATCH', `/api/workflow/edit/${wf.id}`, options);
    for (const field of ['archived', 'id', 'userId', 'creditsSpent', 'lastRun', 'extra']) {
      expectError(
        await edit({ body: { name: 'x', [field]: 1 } }),
        400,
        'Only name and config can be edited',
      );
    }
    expectError(await edit({ body: {} }), 400, 'Name or config is required!');
    expectError(await edit({}), 400, 'Name or config is required!');
    expectError(await edit({ raw: '' }), 400, 'Name or config is required!');
  });
});

describe('PATCH /api/workflow/{id}', () => {
  test('takes {name} alone and answers with the workflow', async () => {
    const wf = await create('old');
    const answer = await call<WorkflowBody>('PATCH', `/api/workflow/${wf.id}`, {
      body: { name: 'new' },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual({ ...answer.body, updatedAt: wf.updatedAt }, { ...wf, name: 'new' });
  });

  test('refuses other fields, a missing name and a missing key', async () => {
    const wf = await create('rename-errors');
    const rename = (options: Parameters<Call>[2]) =>
      call('PATCH', `/api/workflow/${wf.id}`, options);
    expectError(
      await rename({ body: { name: 'x', config: { url: URL_A } } }),
      400,
      'Only name can be changed here; use /api/workflow/edit/{id}',
    );
    expectError(await rename({ body: {} }), 400, 'Name is required!');
    expectError(
      await rename({ body: { name: 7 } }),
      400,
      'Name must be a string of 1 to 100 characters',
    );
    expectError(await rename({ body: { name: 'x' }, key: null }), 403, 'API Key is required!');
  });
});

describe('OpenAPI document', () => {
  test('documents every workflow operation with its body and answers', async () => {
    interface Operation {
      operationId?: string;
      requestBody?: { content: Record<string, { schema: { properties?: object } }> };
      responses: Record<string, unknown>;
    }
    const doc = await call<{ paths: Record<string, Record<string, Operation>> }>(
      'GET',
      '/api/openapi.json',
    );
    const op = (path: string, method: string) => doc.body.paths[path]?.[method];
    const expected: [string, string, string][] = [
      ['/api/workflow', 'get', 'listWorkflows'],
      ['/api/workflow/create', 'post', 'createWorkflow'],
      ['/api/workflow/edit/{id}', 'patch', 'editWorkflow'],
      ['/api/workflow/{id}', 'patch', 'renameWorkflow'],
      ['/api/workflow/archive/{id}', 'delete', 'archiveWorkflow'],
      ['/api/workflow/unarchive/{id}', 'post', 'unarchiveWorkflow'],
      ['/api/workflow/requests/{id}', 'get', 'listWorkflowRequests'],
    ];
    for (const [path, method, id] of expected) {
      const operation = op(path, method);
      assert.equal(operation?.operationId, id, `${method} ${path}`);
      assert.ok(operation?.responses['200'], `${id} documents its 200`);
      assert.ok(operation?.responses['404'] || !path.includes('{id}'), `${id} documents 404`);
    }
    for (const [path, method, fields] of [
      ['/api/workflow/create', 'post', ['config', 'name']],
      ['/api/workflow/edit/{id}', 'patch', ['config', 'name']],
      ['/api/workflow/{id}', 'patch', ['name']],
    ] as const) {
      const schema = op(path, method)?.requestBody?.content['application/json']?.schema;
      assert.deepEqual(Object.keys(schema?.properties ?? {}).sort(), fields);
    }
  });
});
