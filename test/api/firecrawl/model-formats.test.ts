/**
 * The door's model formats (json, v1's jsonOptions, summary) on the operator's model: the
 * real service with OPENAI_BASE_URL at a loopback OpenAI-compatible server that checks every
 * request, driven by Firecrawl's SDK and by plain HTTP for v1.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ModelServer, startModelServer } from '../../helpers/model-server.js';
import { startService, type TestService } from '../../helpers/service.js';

const PRODUCT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kettle</title></head>
<body><nav><a href="/">Shop home</a> <a href="/cart">Cart</a></nav>
<main><article><h1>Copper kettle</h1>
<p>Price: 42 euros. ${'A hand-made kettle of hammered copper, tinned inside, for gas and induction. '.repeat(6)}</p>
</article></main><footer>Shop footer</footer></body></html>`;

const LONG = `<!doctype html><html><head><title>Long</title></head><body><main><article><h1>Long</h1>
<p>${'word '.repeat(5000)}</p></article></main></body></html>`;

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
const CONTEXT_CHARS = 2000;
const TIMEOUT_MS = 1500;

let site: FixtureSite;
let model: ModelServer;
let service: TestService;
let fc: Firecrawl;

before(async () => {
  site = await startFixtureSite();
  site.html('/kettle', PRODUCT);
  site.html('/long', LONG);
  model = await startModelServer({ model: 'test-model', apiKey: 'sk-loopback' });
  service = await startService({
    credits: 1000,
    env: {
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: 'sk-loopback',
      MODEL_NAME: 'test-model',
      MODEL_CONTEXT_CHARS: String(CONTEXT_CHARS),
      MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
      PRICE_MODEL_CALL: '4',
    },
  });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset());

const balance = async () => (await fc.getCreditUsage()).remainingCredits;

interface Answer {
  success?: boolean;
  error: string;
  code?: string;
  data: { json?: unknown; markdown: string };
}

async function postJson(path: string, body: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

describe('the json format', () => {
  it("answers the model's JSON, asked with the schema and the page's main-content Markdown", async () => {
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    const start = await balance();
    const doc = await fc.scrape(site.url('/kettle'), {
      formats: [{ type: 'json', schema: SCHEMA, prompt: 'The product and its price' }],
      maxAge: 0,
    });
    assert.deepEqual(doc.json, { name: 'Copper kettle', price: 42 });
    assert.equal(doc.markdown, undefined, 'markdown only when asked');
    assert.equal(doc.metadata?.creditsUsed, 1 + 4);
    assert.equal(start - (await balance()), 5);
    assert.deepEqual(model.problems, []);
    assert.equal(model.requests.length, 1);
    const [call] = model.requests;
    assert.equal(call?.model, 'test-model');
    assert.deepEqual(call?.response_format?.json_schema?.schema, SCHEMA);
    const user = call?.messages.at(-1)?.content ?? '';
    assert.match(user, /The product and its price/);
    assert.match(user, /Price: 42 euros/);
    assert.doesNotMatch(user, /Shop footer|Cart/, 'main content only');
  });

  it("records the model call with its token counts in the account's request log", async () => {
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    await fc.scrape(site.url('/kettle'), {
      formats: [{ type: 'json', schema: SCHEMA }],
      maxAge: 0,
    });
    const row = await service.running.store.db
      .selectFrom('requests')
      .selectAll()
      .where('account_id', '=', service.accountId)
      .where('output_type', '=', 'json')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'success');
    assert.equal(Number(row.credits), 4);
    assert.equal(row.url, site.url('/kettle'));
    const params = JSON.parse(row.params ?? '{}');
    assert.equal(params.model, 'test-model');
    assert.ok(params.promptTokens > 0 && params.completionTokens > 0, row.params ?? '');
  });

  it('v1: formats ["json"] with jsonOptions, the Markdown too when asked', async () => {
    model.script({ content: '```json\n{"name":"Copper kettle","price":42}\n```' });
    const { status, body } = await postJson('/v1/scrape', {
      url: site.url('/kettle'),
      formats: ['markdown', 'json'],
      jsonOptions: { schema: SCHEMA, systemPrompt: 'Prices in euros.' },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.json, { name: 'Copper kettle', price: 42 });
    assert.match(body.data.markdown, /Copper kettle/);
    assert.match(model.requests[0]?.messages[0]?.content ?? '', /Prices in euros\./);
  });

  it('sends a wrong answer back once with what is wrong, and answers the repair', async () => {
    model.script(
      { content: '{"name":"Copper kettle"}' },
      { content: '{"name":"Copper kettle","price":42}' },
    );
    const start = await balance();
    const doc = await fc.scrape(site.url('/kettle'), {
      formats: [{ type: 'json', schema: SCHEMA }],
      maxAge: 0,
    });
    assert.deepEqual(doc.json, { name: 'Copper kettle', price: 42 });
    assert.equal(model.requests.length, 2);
    const repair = model.requests[1]?.messages ?? [];
    assert.equal(repair.at(-2)?.role, 'assistant');
    assert.match(repair.at(-1)?.content ?? '', /must have required property 'price'/);
    assert.equal(start - (await balance()), 5, 'one model call, whatever its repair');
  });

  it('a model that answers garbage twice: a clear error, the model call refunded', async () => {
    model.script({ content: 'Sure! The kettle costs 42.' }, { content: 'I think it is 42 euros.' });
    const start = await balance();
    const { status, body } = await postJson('/v2/scrape', {
      url: site.url('/kettle'),
      formats: [{ type: 'json', schema: SCHEMA }],
      maxAge: 0,
    });
    assert.equal(status, 500);
    assert.equal(body.code, 'LLM_ERROR');
    assert.match(
      body.error,
      /^The language model failed: its answer is not JSON .*\(after one repair\)$/,
    );
    assert.equal(start - (await balance()), 1, 'the scrape only');
  });

  it('a slow model ends at MODEL_TIMEOUT_MS with a time-out, not a hang', async () => {
    model.script({ delayMs: TIMEOUT_MS * 4, content: '{}' });
    const { status, body } = await postJson('/v2/scrape', {
      url: site.url('/kettle'),
      formats: [{ type: 'json', prompt: 'the price' }],
      maxAge: 0,
    });
    assert.equal(status, 408);
    assert.equal(body.error, `The language model did not answer within ${TIMEOUT_MS} ms`);
  });

  it("a model server's error is named in the answer", async () => {
    model.script({ status: 500, body: '{"error":{"message":"model not loaded"}}' });
    const { status, body } = await postJson('/v2/scrape', {
      url: site.url('/kettle'),
      formats: [{ type: 'json', prompt: 'the price' }],
      maxAge: 0,
    });
    assert.equal(status, 500);
    assert.equal(body.error, 'The language model failed: HTTP 500: model not loaded');
  });

  it('a schema that is no JSON schema is a 400 before any scrape', async () => {
    const hits = site.hits('/kettle');
    const { status, body } = await postJson('/v2/scrape', {
      url: site.url('/kettle'),
      formats: [{ type: 'json', schema: { type: 'thing' } }],
    });
    assert.equal(status, 400);
    assert.match(body.error, /^Invalid JSON schema: /);
    assert.equal(site.hits('/kettle'), hits);
    assert.equal(model.requests.length, 0);
  });

  it('cuts the page text to MODEL_CONTEXT_CHARS', async () => {
    model.script({ content: '{"words":5000}' });
    await fc.scrape(site.url('/long'), { formats: [{ type: 'json', prompt: 'count' }], maxAge: 0 });
    const user = model.requests[0]?.messages.at(-1)?.content ?? '';
    assert.ok(user.includes('word word'));
    assert.ok(user.length < CONTEXT_CHARS + 500, `${user.length} characters sent`);
    assert.equal(model.requests[0]?.response_format?.type, 'json_object');
  });
});

describe('the summary format', () => {
  it("answers the model's summary of the page", async () => {
    model.script({ content: ' A copper kettle for 42 euros. ' });
    const doc = await fc.scrape(site.url('/kettle'), {
      formats: ['summary', 'markdown'],
      maxAge: 0,
    });
    assert.equal(doc.summary, 'A copper kettle for 42 euros.');
    assert.match(doc.markdown ?? '', /Copper kettle/);
    assert.equal(model.requests[0]?.response_format, undefined);
    assert.match(model.requests[0]?.messages.at(-1)?.content ?? '', /Price: 42 euros/);
    assert.deepEqual(model.problems, []);
  });
});

describe('in a batch', () => {
  it('a batch page with the json format answers as the /scrape route does, charged alike', async () => {
    const formats = [{ type: 'json' as const, schema: SCHEMA, prompt: 'The product' }];
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    const single = await fc.scrape(site.url('/kettle'), { formats, maxAge: 0 });
    model.script({ content: '{"name":"Copper kettle","price":42}' });
    const start = await balance();
    const job = await fc.batchScrape([site.url('/kettle')], {
      options: { formats, maxAge: 0 },
      pollInterval: 0.2,
      timeout: 30,
    });
    assert.equal(job.status, 'completed');
    const [page] = job.data;
    assert.deepEqual(page?.json, single.json);
    assert.equal(page?.markdown, undefined, 'markdown only when asked');
    assert.equal(page?.metadata?.creditsUsed, single.metadata?.creditsUsed);
    assert.equal(start - (await balance()), 1 + 4);
    assert.equal(model.requests.length, 2, 'one model call per page');
    assert.match(model.requests[1]?.messages.at(-1)?.content ?? '', /Price: 42 euros/);
    assert.deepEqual(model.problems, []);
  });
});
