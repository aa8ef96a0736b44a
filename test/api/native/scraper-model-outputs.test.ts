/**
 * The native json and summary outputs on the operator's model: the real service with
 * OPENAI_BASE_URL at a loopback OpenAI-compatible server that checks every request, a
 * fixture site, GET /api/scraper and a workflow run. The model call is priced into the scrape
 * (PRICE_MODEL_CALL on top), its token counts in the scrape's request record.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import type { ModelServer } from '../../helpers/model-server.js';
import {
  balanceOf,
  nativeScrape,
  startServiceWithModel,
  type TestService,
} from '../../helpers/service.js';
import { workflowClient } from '../../helpers/workflow-http.js';

const PRODUCT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kettle</title></head>
<body><nav><a href="/">Shop home</a> <a href="/cart">Cart</a></nav>
<main><article><h1>Copper kettle</h1>
<p>Price: 42 euros. ${'A hand-made kettle of hammered copper, tinned inside. '.repeat(6)}</p>
</article></main><footer>Shop footer</footer></body></html>`;

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
const PRICE_MODEL_CALL = 4;
const FETCH = DEFAULTS.pricing.baseFetch;

let site: FixtureSite;
let model: ModelServer;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  site.html('/kettle', PRODUCT);
  ({ service, model } = await startServiceWithModel({
    PRICE_MODEL_CALL: String(PRICE_MODEL_CALL),
    MODEL_TIMEOUT_MS: '2000',
  }));
});
after(async () => {
  await service?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset());

const scrape = (params: Record<string, string>) => nativeScrape(service, params);

const balance = () => balanceOf(service);

async function recordOf(id: string) {
  return service.running.store.db
    .selectFrom('requests')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('json_schema and json_prompt', () => {
  it("answer the model's JSON over the main-content Markdown, the call priced into the scrape", async () => {
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    const start = await balance();
    const { response, text } = await scrape({
      url: site.url('/kettle'),
      json_schema: JSON.stringify(SCHEMA),
      json_prompt: 'The product and its price',
    });
    assert.equal(response.status, 200, text);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(text), { name: 'Copper kettle', price: 42 });
    assert.equal(response.headers.get('x-credits-used'), String(FETCH + PRICE_MODEL_CALL));
    assert.equal(start - (await balance()), FETCH + PRICE_MODEL_CALL);
    assert.deepEqual(model.problems, []);
    assert.equal(model.requests.length, 1);
    const [call] = model.requests;
    assert.deepEqual(call?.response_format?.json_schema?.schema, SCHEMA);
    const user = call?.messages.at(-1)?.content ?? '';
    assert.match(user, /The product and its price/);
    assert.match(user, /Price: 42 euros/);
    assert.doesNotMatch(user, /Shop footer|Cart/, 'main content only');

    const record = await recordOf(String(response.headers.get('x-request-id')));
    assert.equal(record.output_type, 'json');
    assert.equal(Number(record.credits), FETCH + PRICE_MODEL_CALL);
    const params = JSON.parse(record.params ?? '{}');
    assert.equal(params.model.model, 'test-model');
    assert.ok(
      params.model.promptTokens > 0 && params.model.completionTokens > 0,
      record.params ?? '',
    );
  });

  it('a model that fails refunds the whole scrape with its error', async () => {
    model.script({ status: 500, body: '{"error":{"message":"out of memory"}}' });
    const start = await balance();
    const { response, text } = await scrape({ url: site.url('/kettle'), json_prompt: 'The price' });
    assert.equal(response.status, 502, text);
    assert.deepEqual(JSON.parse(text), {
      error: 'The language model failed: HTTP 500: out of memory',
    });
    assert.equal(await balance(), start);
  });

  it('a schema that is no JSON schema is a 400 before any fetch', async () => {
    const hits = site.hits('/kettle');
    const { response, text } = await scrape({
      url: site.url('/kettle'),
      json_schema: JSON.stringify({ type: 'no-such-type' }),
    });
    assert.equal(response.status, 400, text);
    assert.match(JSON.parse(text).error, /Invalid JSON schema/);
    assert.equal(site.hits('/kettle'), hits);
    assert.equal(model.requests.length, 0);
  });

  it('with markdown or summary: one output type', async () => {
    for (const other of [{ markdown: 'true' }, { summary: 'true' }] as Record<string, string>[]) {
      const { response, text } = await scrape({
        url: site.url('/kettle'),
        json_prompt: 'The price',
        ...other,
      });
      assert.equal(response.status, 400, text);
      assert.deepEqual(JSON.parse(text), {
        error: 'Only one output type can be requested per request.',
      });
    }
  });
});

describe('summary', () => {
  it("answers the model's summary as text, the call priced into the scrape", async () => {
    model.script({ content: 'A copper kettle for 42 euros.' });
    const { response, text } = await scrape({ url: site.url('/kettle'), summary: 'true' });
    assert.equal(response.status, 200, text);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(text, 'A copper kettle for 42 euros.');
    assert.equal(response.headers.get('x-credits-used'), String(FETCH + PRICE_MODEL_CALL));
    assert.equal(model.requests[0]?.response_format, undefined);
    assert.match(model.requests[0]?.messages.at(-1)?.content ?? '', /Price: 42 euros/);
  });
});

describe('a workflow with json_schema', () => {
  it('saves the question, runs it, and counts the model call in its credits', async () => {
    const call = workflowClient(service.baseUrl, service.apiKey);
    const created = await call<{ id: string; config: Record<string, unknown> }>(
      'POST',
      '/api/workflow/create',
      {
        body: {
          name: 'kettle price',
          config: { url: site.url('/kettle'), json_schema: SCHEMA, json_prompt: 'The price' },
        },
      },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.config.json_schema, SCHEMA);
    assert.equal(created.body.config.json_prompt, 'The price');
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    const { response, text } = await scrape({ workflow_id: created.body.id });
    assert.equal(response.status, 200, text);
    assert.deepEqual(JSON.parse(text), { name: 'Copper kettle', price: 42 });
    const list = await call<{ id: string; creditsSpent: number }[]>('GET', '/api/workflow');
    const workflow = list.body.find((w) => w.id === created.body.id);
    assert.equal(workflow?.creditsSpent, FETCH + PRICE_MODEL_CALL);
    const runs = await call<{ outputType: string }[]>(
      'GET',
      `/api/workflow/requests/${created.body.id}/`,
    );
    assert.deepEqual(
      runs.body.map((run) => run.outputType),
      ['json'],
    );
  });
});
