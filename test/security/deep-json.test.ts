/**
 * Issue 24, point 3: JSON nested 10,000 levels deep, through every door that takes a caller's
 * JSON (bodies of the native API and of the Firecrawl door, the JSON-encoded query parameters
 * of the scraper). Walks over it used to recurse once per level into a RangeError and a 500
 * (the workflow merge patch, the Firecrawl door's cache key); now every door answers 400
 * before anything walks it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../../src/scrape/params/json-depth.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let workflowId: string;

const TEXT = `JSON is nested more than ${MAX_JSON_DEPTH} levels deep`;
/** Written as text: JSON.stringify of such a value would itself overflow. */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const DEEP = deepObject(10_000);
const TARGET = '"http://127.0.0.1:1/"';

before(async () => {
  service = await startService();
  const created = await fetch(`${service.baseUrl}/api/workflow/create?api_key=${service.apiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'deep', config: { url: 'http://127.0.0.1:1/' } }),
  });
  assert.equal(created.status, 200);
  workflowId = ((await created.json()) as { id: string }).id;
});
after(() => service.close());

async function send(method: string, path: string, body: string) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-api-key': service.apiKey,
      authorization: `Bearer ${service.apiKey}`,
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a native body nested 10,000 levels deep', () => {
  const CASES: [string, () => string, string][] = [
    ['PATCH', () => `/api/workflow/edit/${workflowId}`, `{"config":${DEEP}}`],
    ['POST', () => '/api/workflow/create', `{"name":"x","config":${DEEP}}`],
    [
      'PUT',
      () => `/api/workflow/${workflowId}/schedule`,
      `{"cron":"0 * * * *","timezone":${DEEP}}`,
    ],
    ['POST', () => '/api/keys', `{"name":${DEEP}}`],
  ];
  for (const [method, path, body] of CASES) {
    const route = path().replace(/undefined/, '{id}');
    it(`gets 400 naming the bound: ${method} ${route}`, async () => {
      const answer = await send(method, path(), body);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { error: TEXT });
    });
  }

  it('leaves a body at the bound accepted', async () => {
    const config = `{"url":${TARGET},"headers":${deepObject(MAX_JSON_DEPTH - 2)}}`;
    const answer = await send('PATCH', `/api/workflow/edit/${workflowId}`, `{"config":${config}}`);
    // Refused for what it says (headers is no scraper field), not for its depth.
    assert.equal(answer.status, 400);
    assert.notEqual(answer.body.error, TEXT);
  });
});

describe('a JSON-encoded scraper parameter nested too deep', () => {
  for (const [name, value] of [
    ['config', `{"render":${deepObject(MAX_JSON_DEPTH + 1)}}`],
    ['instructions', deepArray(MAX_JSON_DEPTH + 1)],
  ] as const) {
    it(`gets 400 naming the bound: ${name}`, async () => {
      const url = new URL('/api/scraper', service.baseUrl);
      url.searchParams.set('api_key', service.apiKey);
      url.searchParams.set('url', 'http://127.0.0.1:1/');
      url.searchParams.set('render', 'true');
      url.searchParams.set(name, value);
      const response = await fetch(url);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error: TEXT });
    });
  }
});

describe('a Firecrawl body nested 10,000 levels deep', () => {
  const CASES: [string, string][] = [
    ['/v2/scrape', `{"url":${TARGET},"jsonOptions":{"schema":${DEEP}}}`],
    ['/v1/scrape', `{"url":${TARGET},"actions":[${DEEP}]}`],
    ['/v2/scrape', `{"url":${TARGET},"formats":[{"type":"json","schema":${DEEP}}]}`],
    ['/v2/crawl', `{"url":${TARGET},"webhook":{"url":${TARGET},"metadata":${DEEP}}}`],
    ['/v2/crawl', `{"url":${TARGET},"scrapeOptions":{"jsonOptions":${DEEP}}}`],
    ['/v2/batch/scrape', `{"urls":[${TARGET}],"jsonOptions":${DEEP}}`],
    ['/v2/map', `{"url":${TARGET},"location":${DEEP}}`],
  ];
  for (const [path, body] of CASES) {
    const field = /"(\w+)":\{"a"|"(\w+)":\[\{"a"/.exec(body);
    it(`gets 400 in Firecrawl's envelope: ${path} (${field?.[1] ?? field?.[2]})`, async () => {
      const answer = await send('POST', path, body);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { success: false, code: 'BAD_REQUEST', error: TEXT });
    });
  }
});
