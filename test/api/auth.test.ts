/**
 * Contract 1.1–1.2 and 1.7 through HTTP on the real service: the 403 texts, the header key,
 * X-Request-Id on every answer, trailing slashes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;

before(async () => {
  service = await startService({ credits: 42 });
});
after(() => service.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.baseUrl}${path}`, { headers });
  const text = await response.text();
  return { response, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('authentication', () => {
  it('a missing key is 403 `API Key is required!`', async () => {
    const { response, text } = await get('/api/account');
    assert.equal(response.status, 403);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(text, '{"error":"API Key is required!"}');
  });

  it('an empty key is 403 `API Key is required!`', async () => {
    const { response, text } = await get('/api/account?api_key=');
    assert.equal(response.status, 403);
    assert.equal(text, '{"error":"API Key is required!"}');
  });

  it('an unknown key is 403 `Invalid API key!`', async () => {
    const { response, text } = await get('/api/account?api_key=pgk_nope');
    assert.equal(response.status, 403);
    assert.equal(text, '{"error":"Invalid API key!"}');
  });

  it('an unknown key in the header is 403 `Invalid API key!`', async () => {
    const { response, text } = await get('/api/account', { 'X-API-Key': 'pgk_nope' });
    assert.equal(response.status, 403);
    assert.equal(text, '{"error":"Invalid API key!"}');
  });

  it('query and header keys that differ are 403 `Invalid API key!`, even if both are valid', async () => {
    const other = await service.addAccount(5);
    const { response, text } = await get(`/api/account?api_key=${service.apiKey}`, {
      'X-API-Key': other.apiKey,
    });
    assert.equal(response.status, 403);
    assert.equal(text, '{"error":"Invalid API key!"}');
  });

  it('the same key in query and header is accepted', async () => {
    const { response } = await get(`/api/account?api_key=${service.apiKey}`, {
      'X-API-Key': service.apiKey,
    });
    assert.equal(response.status, 200);
  });

  it('the X-API-Key header alone authenticates', async () => {
    const { response, json } = await get('/api/account', { 'X-API-Key': service.apiKey });
    assert.equal(response.status, 200);
    const body = json();
    assert.equal(body.id, service.accountId);
    assert.equal(body.credits, 42);
    assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'credits', 'id', 'name']);
    assert.match(String(body.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('Authorization: Bearer <key> authenticates; another scheme is not read as a key', async () => {
    const bearer = await get('/api/account', { Authorization: `Bearer ${service.apiKey}` });
    assert.equal(bearer.response.status, 200);
    assert.equal(bearer.json().id, service.accountId);
    const basic = await get('/api/account', { Authorization: 'Basic dXNlcjpwYXNz' });
    assert.equal(basic.response.status, 403);
    assert.equal(basic.text, '{"error":"API Key is required!"}');
    const withBasic = await get(`/api/account?api_key=${service.apiKey}`, {
      Authorization: 'Basic dXNlcjpwYXNz',
    });
    assert.equal(withBasic.response.status, 200, 'a proxy in front may add its own Basic auth');
  });

  it('a bearer key that differs from the query key is 403 `Invalid API key!`', async () => {
    const other = await service.addAccount(5);
    const { response, text } = await get(`/api/account?api_key=${service.apiKey}`, {
      Authorization: `Bearer ${other.apiKey}`,
    });
    assert.equal(response.status, 403);
    assert.equal(text, '{"error":"Invalid API key!"}');
  });

  it('the Firecrawl door answers a missing or wrong key with its 401 envelope', async () => {
    const missing = await get('/v2/team/credit-usage');
    assert.equal(missing.response.status, 401);
    assert.deepEqual(missing.json(), {
      success: false,
      code: 'UNAUTHORIZED',
      error: 'Unauthorized',
    });
    const wrong = await get('/v2/team/credit-usage', { Authorization: 'Bearer pgk_nope' });
    assert.equal(wrong.response.status, 401);
    assert.deepEqual(wrong.json(), {
      success: false,
      code: 'UNAUTHORIZED',
      error: 'Unauthorized: Invalid token',
    });
  });

  it('an unknown route or a wrong method under /v1 or /v2 answers in the envelope too', async () => {
    const unknown = await get('/v2/nothing-here');
    assert.equal(unknown.response.status, 404);
    // In words an agent can act on (issue 29), not Express's `Not found!`.
    assert.deepEqual(unknown.json(), {
      success: false,
      code: 'NOT_FOUND',
      error:
        'This self-hosted server (pagegrab) has no Firecrawl endpoint GET /v2/nothing-here. The endpoints it offers are listed at /docs (tag firecrawl).',
    });
    const method = await get('/v1/scrape');
    assert.equal(method.response.status, 405);
    assert.equal(method.json().success, false);
    assert.equal((await get('/api/nothing-here')).text, '{"error":"Not found!"}');
  });

  it('the key is never echoed in a response', async () => {
    const { text } = await get(`/api/account?api_key=${service.apiKey}`);
    assert.ok(!text.includes(service.apiKey));
  });
});

describe('every response', () => {
  const cases: [string, string, number][] = [
    ['account', '/api/account', 403],
    ['account with key', `/api/account?api_key=KEY`, 200],
    ['unknown route', '/nope', 404],
    ['health', '/healthz', 200],
    ['scraper without url', '/api/scraper?api_key=KEY', 400],
  ];
  for (const [what, path, status] of cases) {
    it(`carries X-Request-Id (${what}, ${status})`, async () => {
      const { response } = await get(path.replace('KEY', service.apiKey));
      assert.equal(response.status, status);
      assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });
  }

  it('gives each request its own id', async () => {
    const a = await get('/healthz');
    const b = await get('/healthz');
    assert.notEqual(a.response.headers.get('x-request-id'), b.response.headers.get('x-request-id'));
  });

  it('a 405 (known path, wrong method) is JSON with X-Request-Id', async () => {
    const response = await fetch(`${service.baseUrl}/api/account`, { method: 'DELETE' });
    assert.equal(response.status, 405);
    assert.ok(response.headers.get('x-request-id'));
    assert.deepEqual(await response.json(), {
      error: 'Method DELETE is not allowed on this route',
    });
  });

  it('an unknown route is 404 `Not found!` in JSON', async () => {
    const { response, text } = await get('/api/nothing-here');
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(text, '{"error":"Not found!"}');
  });
});

describe('trailing slashes', () => {
  for (const path of ['/api/account/', '/healthz/', '/api/scraper/']) {
    it(`${path} answers like its form without the slash`, async () => {
      const bare = path.replace(/\/$/, '');
      const slash = await get(`${path}?api_key=${service.apiKey}`);
      const plain = await get(`${bare}?api_key=${service.apiKey}`);
      assert.notEqual(slash.response.status, 404);
      assert.equal(slash.response.status, plain.response.status);
      assert.equal(slash.text, plain.text);
    });
  }
});
