/**
 * Issue 24, point 8: what a caller sends and what the answers give back. The Firecrawl door
 * checks the key before it reads the body (a bad key is a 401 whatever the body), and error
 * texts never repeat a value shaped like an API key, nor any value at unbounded length.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_ECHOED_CHARS } from '../../src/errors.js';
import { startService, type TestService } from '../helpers/service.js';
import { workflowClient } from '../helpers/workflow-http.js';

let service: TestService;

before(async () => {
  service = await startService();
});
after(() => service.close());

async function post(path: string, body: string, key: string, type = 'application/json') {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': type },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the Firecrawl door with a bad key', () => {
  const BAD_KEY = 'pgk_notakeyofthisservice';
  const BODIES: Record<string, [string, string?]> = {
    'an unknown field': ['{"nope":1}'],
    'no url': ['{}'],
    'invalid JSON': ['{"url":'],
    'a wrong content type': ['url=x', 'text/plain'],
    'a valid body': ['{"url":"http://127.0.0.1:1/"}'],
  };
  for (const path of ['/v2/scrape', '/v1/scrape', '/v2/crawl', '/v2/batch/scrape', '/v2/map']) {
    for (const [name, [body, type]] of Object.entries(BODIES)) {
      it(`answers 401 in Firecrawl's envelope on ${path} with ${name}`, async () => {
        const answer = await post(path, body, BAD_KEY, type);
        assert.equal(answer.status, 401, JSON.stringify(answer.body));
        assert.equal(answer.body.success, false);
        assert.equal(answer.body.code, 'UNAUTHORIZED');
      });
    }
  }

  it('still validates the body of a good key', async () => {
    const answer = await post('/v2/scrape', '{"nope":1}', service.apiKey);
    assert.equal(answer.status, 400);
  });
});

describe('error texts', () => {
  it('never repeat an API key given as a parameter name', async () => {
    const url = new URL('/api/scraper', service.baseUrl);
    url.searchParams.set('api_key', service.apiKey);
    url.searchParams.set('url', 'http://127.0.0.1:1/');
    url.searchParams.set(service.apiKey, '1');
    const response = await fetch(url);
    const text = await response.text();
    assert.equal(response.status, 400);
    assert.ok(!text.includes(service.apiKey.slice(4)), text);
    assert.deepEqual(JSON.parse(text), { error: 'Unknown parameter: pgk_[REDACTED]' });
  });

  it('never repeat an API key given as a time zone', async () => {
    const call = workflowClient(service.baseUrl, service.apiKey);
    const created = await call<{ id: string }>('POST', '/api/workflow/create', {
      body: { name: 'zone', config: { url: 'http://127.0.0.1:1/' } },
    });
    assert.equal(created.status, 200);
    const answer = await call<{ error: string }>(
      'PUT',
      `/api/workflow/${created.body.id}/schedule`,
      { body: { cron: '0 * * * *', timezone: service.apiKey } },
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, 'Unknown time zone: pgk_[REDACTED]');
  });

  it('never repeat an API key given as a field of a Firecrawl body', async () => {
    const answer = await post(
      '/v2/scrape',
      JSON.stringify({ [service.apiKey]: 1 }),
      service.apiKey,
    );
    assert.equal(answer.status, 400);
    assert.ok(!JSON.stringify(answer.body).includes(service.apiKey.slice(4)));
  });

  it(`cut a caller's value at ${MAX_ECHOED_CHARS} characters`, async () => {
    const url = new URL('/api/scraper', service.baseUrl);
    url.searchParams.set('api_key', service.apiKey);
    url.searchParams.set('x'.repeat(5000), '1');
    const response = await fetch(url);
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: string };
    assert.equal(error, `Unknown parameter: ${'x'.repeat(MAX_ECHOED_CHARS)}…`);
  });
});
