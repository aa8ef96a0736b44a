/**
 * The changeTracking format's json mode on the operator's model, through Firecrawl's SDK:
 * scrapes of a loopback page that changes between them, the model (a loopback
 * OpenAI-compatible server that reads the price off the page it is sent) asked for the
 * previous and the current answer only when the page changed, and each changed field
 * answered as `{previous, current}`, each call paid and recorded.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ModelServer, startModelServer } from '../../helpers/model-server.js';
import { startService, type TestService } from '../../helpers/service.js';

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};
const PRICE_MODEL_CALL = 4;

let site: FixtureSite;
let model: ModelServer;
let service: TestService;
let fc: Firecrawl;
let price = 40;

const PAGE = () => `<!doctype html><html><head><title>Kettle</title></head><body><main><article>
<h1>Copper kettle</h1><p>Price: ${price} euros.</p><p>${'A hand-made kettle of hammered copper. '.repeat(8)}</p>
</article></main></body></html>`;

interface Tracking {
  changeStatus?: string;
  previousScrapeAt?: string | null;
  json?: Record<string, { previous: unknown; current: unknown }>;
  diff?: { text: string };
}

before(async () => {
  site = await startFixtureSite();
  site.route('/kettle', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE());
  });
  model = await startModelServer({ model: 'test-model', apiKey: null });
  // As a model would: the answer is read off the page text it was sent.
  model.fallback((request) => {
    const text = request.messages.at(-1)?.content ?? '';
    const seen = /Price: (\d+) euros/.exec(text)?.[1];
    return { content: JSON.stringify({ name: 'Copper kettle', price: Number(seen) }) };
  });
  service = await startService({
    credits: 200,
    env: {
      OPENAI_BASE_URL: model.baseUrl,
      MODEL_NAME: 'test-model',
      PRICE_MODEL_CALL: String(PRICE_MODEL_CALL),
    },
  });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await model?.close();
  await site?.close();
});

const track = async () => {
  const doc = await fc.scrape(site.url('/kettle'), {
    formats: [
      { type: 'changeTracking', modes: ['json', 'git-diff'], schema: SCHEMA, prompt: 'The price' },
    ],
    maxAge: 0,
  });
  return {
    tracking: (doc as { changeTracking?: Tracking }).changeTracking ?? {},
    credits: doc.metadata?.creditsUsed,
  };
};

describe('the changeTracking json mode', () => {
  it('compares the previous and current answers field by field, asking the model only when the page changed', async () => {
    const first = await track();
    assert.equal(first.tracking.changeStatus, 'new');
    assert.equal(first.tracking.json, undefined);
    assert.equal(first.credits, 1);
    assert.equal(model.requests.length, 0, 'a new page asks the model nothing');

    price = 35;
    const second = await track();
    assert.equal(second.tracking.changeStatus, 'changed');
    assert.deepEqual(second.tracking.json, { price: { previous: 40, current: 35 } });
    assert.match(second.tracking.diff?.text ?? '', /^\+Price: 35 euros\.$/m, 'both modes');
    assert.equal(second.credits, 1 + 2 * PRICE_MODEL_CALL, 'two paid model calls');
    assert.equal(model.requests.length, 2);
    const [previousCall, currentCall] = model.requests;
    assert.deepEqual(previousCall?.response_format?.json_schema?.schema, SCHEMA);
    assert.match(previousCall?.messages.at(-1)?.content ?? '', /The price[\s\S]*Price: 40 euros/);
    assert.match(currentCall?.messages.at(-1)?.content ?? '', /Price: 35 euros/);

    const third = await track();
    assert.equal(third.tracking.changeStatus, 'same');
    assert.equal(third.tracking.json, undefined);
    assert.equal(third.credits, 1);
    assert.equal(model.requests.length, 2, 'an unchanged page asks the model nothing');
    assert.deepEqual(model.problems, []);

    const calls = await service.running.store.db
      .selectFrom('requests')
      .select(['credits', 'params', 'status'])
      .where('account_id', '=', service.accountId)
      .where('output_type', '=', 'changeTracking')
      .execute();
    assert.equal(calls.length, 2);
    for (const call of calls) {
      assert.equal(call.status, 'success');
      assert.equal(Number(call.credits), PRICE_MODEL_CALL);
      const params = JSON.parse(call.params ?? '{}');
      assert.ok(params.promptTokens > 0 && params.completionTokens > 0, call.params ?? '');
    }
  });

  it('refuses a json mode with neither schema nor prompt, before any scrape', async () => {
    const hits = site.hits('/kettle');
    await assert.rejects(
      fc.scrape(site.url('/kettle'), { formats: [{ type: 'changeTracking', modes: ['json'] }] }),
      /The changeTracking json mode needs a schema or a prompt/,
    );
    assert.equal(site.hits('/kettle'), hits);
  });
});
