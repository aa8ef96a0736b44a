/**
 * /v1/extract and /v2/extract: jobs over URLs answered by the operator's model, through
 * Firecrawl's SDK (start, poll) and plain HTTP for v1, with a loopback OpenAI-compatible
 * server that checks every request and a loopback site.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import type { ModelServer } from '../../helpers/model-server.js';
import { startServiceWithModel, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';

const page = (title: string, body: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${body} ${'Some more words about it. '.repeat(10)}</p>${links}</article></main></body></html>`;

const SCHEMA = {
  type: 'object',
  properties: { teas: { type: 'array', items: { type: 'string' } } },
  required: ['teas'],
};
const MAX_PAGES = 3;

let site: FixtureSite;
let model: ModelServer;
let service: TestService;
let fc: Firecrawl;

before(async () => {
  site = await startFixtureSite();
  site.html('/green', page('Green tea', 'Sencha is a green tea.'));
  site.html('/black', page('Black tea', 'Assam is a black tea.'));
  const shop = ['a', 'b', 'c', 'd', 'e'].map((name) => `<a href="/shop/${name}">Tea ${name}</a>`);
  site.html('/shop/', page('Shop', 'All our teas.', shop.join(' ')));
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    site.html(`/shop/${name}`, page(`Tea ${name}`, `Tea number ${name}.`));
  }
  ({ service, model } = await startServiceWithModel({
    EXTRACT_MAX_PAGES: String(MAX_PAGES),
    PRICE_MODEL_CALL: '4',
    JOB_POLL_MS: '50',
  }));
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await model?.close();
  await site?.close();
});
beforeEach(() => model.reset());

async function call(method: string, path: string, body?: unknown, apiKey = service.apiKey) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function finished(path: string) {
  let last: Record<string, unknown> = {};
  await until(async () => {
    last = (await call('GET', path)).body;
    return last.status !== 'processing';
  }, 30_000);
  return last;
}

describe('extract', () => {
  it("reads every URL and answers the model's JSON over their Markdown (SDK, v2)", async () => {
    model.script({ content: '{"teas":["Sencha","Assam"]}' });
    const answer = await fc.extract({
      urls: [site.url('/green'), site.url('/black')],
      prompt: 'Name the teas',
      schema: SCHEMA,
      pollInterval: 1,
      timeout: 60,
    });
    assert.equal(answer.status, 'completed', JSON.stringify(answer));
    assert.deepEqual(answer.data, { teas: ['Sencha', 'Assam'] });
    assert.equal(answer.creditsUsed, 2 + 4, 'two scrapes and one model call');
    assert.deepEqual(model.problems, []);
    assert.equal(model.requests.length, 1);
    const user = model.requests[0]?.messages.at(-1)?.content ?? '';
    assert.match(user, /Sencha is a green tea/);
    assert.match(user, /Assam is a black tea/);
    assert.match(user, /Name the teas/);
    assert.deepEqual(model.requests[0]?.response_format?.json_schema?.schema, SCHEMA);
  });

  it('a `/*` URL reads the site, up to EXTRACT_MAX_PAGES pages', async () => {
    model.script({ content: '{"teas":["a","b"]}' });
    const started = await call('POST', '/v2/extract', {
      urls: [`${site.url('/shop/')}*`],
      schema: SCHEMA,
      showSources: true,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const done = await finished(`/v2/extract/${started.body.id}`);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const pages = (done.sources as { pages: string[] }).pages;
    assert.equal(pages.length, MAX_PAGES);
    assert.equal(pages[0], site.url('/shop/'));
    assert.ok(
      pages.every((url) => url.startsWith(site.url('/shop/'))),
      pages.join(),
    );
    const user = model.requests[0]?.messages.at(-1)?.content ?? '';
    assert.equal(user.match(/Page: /g)?.length, MAX_PAGES);
    assert.equal(done.creditsUsed, 1 + MAX_PAGES + 4, 'the map, the pages, the model call');
  });

  it('v1: starts with an id and urlTrace, and polls to the answer', async () => {
    model.script({ content: '{"teas":["Sencha"]}' });
    const started = await call('POST', '/v1/extract', {
      urls: [site.url('/green')],
      prompt: 'teas',
    });
    assert.equal(started.status, 200);
    assert.equal(typeof started.body.id, 'string');
    assert.deepEqual(started.body.urlTrace, []);
    const done = await finished(`/v1/extract/${started.body.id}`);
    assert.deepEqual(done.data, { teas: ['Sencha'] });
    assert.equal(model.requests[0]?.response_format?.type, 'json_object');
  });

  it('a model that answers garbage ends the extract failed with why, the model call refunded', async () => {
    model.script({ content: 'no idea' }, { content: 'still no idea' });
    const started = await call('POST', '/v2/extract', {
      urls: [site.url('/green')],
      schema: SCHEMA,
    });
    const done = await finished(`/v2/extract/${started.body.id}`);
    assert.equal(done.status, 'failed');
    assert.match(String(done.error), /^The language model failed: its answer is not JSON/);
    assert.equal(done.creditsUsed, 1, 'the scrape only');
  });

  it("an unknown id, or another account's, is 404 in Firecrawl's words", async () => {
    const started = await call('POST', '/v2/extract', { urls: [site.url('/green')], prompt: 'x' });
    const other = await service.addAccount(10);
    const foreign = await call('GET', `/v2/extract/${started.body.id}`, undefined, other.apiKey);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'Extract job not found');
    const unknown = await call('GET', '/v1/extract/0190a0a0-0000-7000-8000-000000000000');
    assert.equal(unknown.status, 404);
    await finished(`/v2/extract/${started.body.id}`);
  });

  it('refuses before storing anything: no prompt nor schema, web search, a bad schema, no valid URL', async () => {
    const cases: [unknown, RegExp][] = [
      [{ urls: [site.url('/green')] }, /^An extract needs a prompt or a schema$/],
      [{ urls: [site.url('/green')], prompt: 'x', enableWebSearch: true }, /enableWebSearch/],
      [{ urls: [site.url('/green')], schema: { type: 'thing' } }, /^Invalid JSON schema/],
      [{ urls: ['not a url'], prompt: 'x' }, /^An extract needs at least one valid URL$/],
      [{ urls: [], prompt: 'x' }, /^Bad Request$/],
    ];
    for (const [body, text] of cases) {
      const answer = await call('POST', '/v2/extract', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.match(String(answer.body.error), text);
    }
    assert.equal(model.requests.length, 0);
  });
});
