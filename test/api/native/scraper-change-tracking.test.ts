/**
 * The native change_tracking output: the real service, a loopback page that changes between
 * scrapes, GET /api/scraper and a workflow run; the json mode on a loopback OpenAI-compatible
 * model. Each scrape is compared with the account's previous change_tracking scrape of the
 * same URL (its kept result).
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

const pageWith = (price: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Kettle</title></head><body><main><article><h1>Copper kettle</h1>
<p>Price: ${price} euros. ${'A hand-made kettle of hammered copper, tinned inside. '.repeat(4)}</p>
</article></main></body></html>`;

const PRICE_MODEL_CALL = 4;
const FETCH = DEFAULTS.pricing.baseFetch;

interface Answer {
  changeStatus: string;
  previousScrapeAt: string | null;
  visibility: string;
  diff: string | null;
  markdown: string;
  json?: Record<string, { previous: unknown; current: unknown }>;
}

let site: FixtureSite;
let model: ModelServer;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  ({ service, model } = await startServiceWithModel({
    PRICE_MODEL_CALL: String(PRICE_MODEL_CALL),
    MODEL_TIMEOUT_MS: '5000',
  }));
});
after(async () => {
  await service?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset());

async function track(params: Record<string, string>) {
  const { response, text } = await nativeScrape(service, { change_tracking: 'true', ...params });
  assert.equal(response.status, 200, text);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  return {
    answer: JSON.parse(text) as Answer,
    credits: Number(response.headers.get('x-credits-used')),
    requestId: String(response.headers.get('x-request-id')),
  };
}

describe('change_tracking', () => {
  it('answers new, then same, then changed with a diff of the Markdown, then removed', async () => {
    site.html('/kettle', pageWith(42));
    const url = site.url('/kettle');
    const start = await balanceOf(service);

    const first = await track({ url });
    assert.equal(first.answer.changeStatus, 'new');
    assert.equal(first.answer.previousScrapeAt, null);
    assert.equal(first.answer.diff, null);
    assert.match(first.answer.markdown, /Price: 42 euros/);

    const second = await track({ url });
    assert.equal(second.answer.changeStatus, 'same');
    assert.ok(second.answer.previousScrapeAt, 'the first scrape is the previous one');
    assert.ok(Date.parse(second.answer.previousScrapeAt) <= Date.now());

    site.html('/kettle', pageWith(45));
    const third = await track({ url });
    assert.equal(third.answer.changeStatus, 'changed');
    assert.equal(third.answer.visibility, 'visible');
    assert.match(third.answer.diff ?? '', /^-.*Price: 42 euros/m);
    assert.match(third.answer.diff ?? '', /^\+.*Price: 45 euros/m);
    assert.match(third.answer.markdown, /Price: 45 euros/);

    site.html('/kettle', '<!doctype html><title>Gone</title><p>Not found</p>', 404);
    const fourth = await track({ url });
    assert.equal(fourth.answer.changeStatus, 'removed');
    assert.equal(fourth.answer.visibility, 'hidden');

    for (const scrape of [first, second, third, fourth]) assert.equal(scrape.credits, FETCH);
    assert.equal(start - (await balanceOf(service)), 4 * FETCH);
    assert.equal(model.requests.length, 0, 'the git-diff comparison asks no model');
  });

  it('with json_prompt asks the model only on a changed page, charging those two calls', async () => {
    site.html('/teapot', pageWith(10));
    const url = site.url('/teapot');
    const start = await balanceOf(service);
    const first = await track({ url, json_prompt: 'The price' });
    assert.equal(first.answer.changeStatus, 'new');
    assert.equal(first.answer.json, undefined);
    assert.equal(first.credits, FETCH, 'the reserved model calls are returned');
    assert.equal(model.requests.length, 0);

    site.html('/teapot', pageWith(12));
    model.script(
      { content: '{"price":10,"name":"Copper kettle"}' },
      { content: '{"price":12,"name":"Copper kettle"}' },
    );
    const second = await track({ url, json_prompt: 'The price' });
    assert.equal(second.answer.changeStatus, 'changed');
    assert.deepEqual(second.answer.json, { price: { previous: 10, current: 12 } });
    assert.equal(second.credits, FETCH + 2 * PRICE_MODEL_CALL);
    assert.equal(start - (await balanceOf(service)), 2 * FETCH + 2 * PRICE_MODEL_CALL);
    assert.deepEqual(model.problems, []);
    const asked = model.requests.map((r) => r.messages.at(-1)?.content ?? '');
    assert.match(asked[0] ?? '', /Price: 10 euros/);
    assert.match(asked[1] ?? '', /Price: 12 euros/);

    const record = await service.running.store.db
      .selectFrom('requests')
      .selectAll()
      .where('id', '=', second.requestId)
      .executeTakeFirstOrThrow();
    assert.equal(record.output_type, 'change_tracking');
    assert.equal(Number(record.credits), FETCH + 2 * PRICE_MODEL_CALL);
    assert.equal(JSON.parse(record.params ?? '{}').model.model, 'test-model');
  });

  it('with markdown: one output type', async () => {
    const { response, text } = await nativeScrape(service, {
      url: site.url('/kettle'),
      change_tracking: 'true',
      markdown: 'true',
    });
    assert.equal(response.status, 400, text);
    assert.deepEqual(JSON.parse(text), {
      error: 'Only one output type can be requested per request.',
    });
  });
});

describe('a workflow with change_tracking', () => {
  it('saves it, and each run is compared with the one before', async () => {
    site.html('/jug', pageWith(7));
    const call = workflowClient(service.baseUrl, service.apiKey);
    const created = await call<{ id: string; config: Record<string, unknown> }>(
      'POST',
      '/api/workflow/create',
      { body: { name: 'jug watch', config: { url: site.url('/jug'), change_tracking: true } } },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.config.change_tracking, true);
    const first = await track({ workflow_id: created.body.id });
    assert.equal(first.answer.changeStatus, 'new');
    site.html('/jug', pageWith(8));
    const second = await track({ workflow_id: created.body.id });
    assert.equal(second.answer.changeStatus, 'changed');
    assert.match(second.answer.diff ?? '', /^\+.*Price: 8 euros/m);
    const runs = await call<{ outputType: string; creditsSpent: number }[]>(
      'GET',
      `/api/workflow/requests/${created.body.id}/`,
    );
    assert.deepEqual(
      runs.body.map((run) => [run.outputType, run.creditsSpent]),
      [
        ['change_tracking', FETCH],
        ['change_tracking', FETCH],
      ],
    );
  });
});
