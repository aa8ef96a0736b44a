/**
 * extract_rules and structured_data through the native door, on a real service and a fixture
 * site: JSON answers from fetched and rendered pages at the page's price, bad rules refused
 * before any fetch or charge, and a workflow that saves rules and runs them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { balanceOf, nativeScrape, startService, type TestService } from '../../helpers/service.js';
import { workflowClient } from '../../helpers/workflow-http.js';
import { SHOP_PAGE } from '../../scrape/output/extract/shop-page.js';

let site: FixtureSite;
let service: TestService;

/** The shop's products written by a script: only a render has them. */
const RENDERED_SHOP = `<!doctype html><html><head><title>App</title></head><body><ul id="list"></ul>
<script>
for (const [sku, name] of [['A1', 'Kettle'], ['A2', 'Toaster']]) {
  document.getElementById('list').insertAdjacentHTML('beforeend',
    '<li class="product" data-sku="' + sku + '"><a href="/p/' + sku + '">' + name + '</a><ul class="tags"><li>new</li><li>' + sku + '</li></ul></li>');
}
</script></body></html>`;

const STRUCTURED = `<!doctype html><html><head><title>Lamp</title>
<meta property="og:title" content="Desk lamp"><meta name="twitter:card" content="summary">
<script type="application/ld+json">{"@type":"Product","name":"Desk lamp"}</script>
<script type="application/ld+json">{"@type":"Product",,}</script>
</head><body><div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">20</span></div></body></html>`;

const PRODUCT_RULES = {
  products: {
    selector: 'li.product',
    type: 'list',
    output: {
      sku: '@data-sku',
      name: 'a',
      url: 'a@href',
      tags: { selector: '.tags li', type: 'list' },
    },
  },
};

before(async () => {
  site = await startFixtureSite();
  site.html('/shop', SHOP_PAGE);
  site.html('/app', RENDERED_SHOP);
  site.html('/lamp', STRUCTURED);
  service = await startService({ credits: 1000 });
});
after(async () => {
  await service?.close();
  await site?.close();
});

const scrape = (params: Record<string, string>) => nativeScrape(service, params);

const balance = () => balanceOf(service);

describe('extract_rules', () => {
  it('a fetched page answers its fields as JSON, nested lists included, at a fetch price', async () => {
    const { response, text } = await scrape({
      url: site.url('/shop'),
      extract_rules: JSON.stringify({ title: 'h1', ...PRODUCT_RULES }),
    });
    assert.equal(response.status, 200, text);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('x-credits-used'), String(DEFAULTS.pricing.baseFetch));
    assert.deepEqual(JSON.parse(text), {
      title: 'The Shop',
      products: [
        { sku: 'L1', name: 'Desk lamp', url: '/lamp/1', tags: [] },
        { sku: 'L2', name: 'Floor lamp', url: '/lamp/2', tags: ['tall', 'warm'] },
        { sku: 'C1', name: 'Stool', url: '/chair/1', tags: [] },
      ],
    });
  });

  it('a rendered page answers the fields its scripts wrote, at a render price', async () => {
    const { response, text } = await scrape({
      url: site.url('/app'),
      render: 'true',
      extract_rules: JSON.stringify(PRODUCT_RULES),
    });
    assert.equal(response.status, 200, text);
    assert.equal(response.headers.get('x-credits-used'), String(DEFAULTS.pricing.baseRender));
    assert.deepEqual(JSON.parse(text), {
      products: [
        { sku: 'A1', name: 'Kettle', url: '/p/A1', tags: ['new', 'A1'] },
        { sku: 'A2', name: 'Toaster', url: '/p/A2', tags: ['new', 'A2'] },
      ],
    });
  });

  it('bad rules are a 400 naming the field, before any fetch or charge', async () => {
    const hits = site.hits('/shop');
    const credits = await balance();
    const { response, text } = await scrape({
      url: site.url('/shop'),
      extract_rules: JSON.stringify({ products: { selector: 'li', output: { price: 'span[' } } }),
    });
    assert.equal(response.status, 400);
    assert.match(
      JSON.parse(text).error,
      /^Invalid value for extract_rules: "products" > "price": "span\[" is not a valid CSS selector/,
    );
    assert.equal(site.hits('/shop'), hits, 'the page was not fetched');
    assert.equal(await balance(), credits, 'nothing was charged');
  });

  it('with markdown: one output type', async () => {
    const { response, text } = await scrape({
      url: site.url('/shop'),
      markdown: 'true',
      extract_rules: '{"title":"h1"}',
    });
    assert.equal(response.status, 400);
    assert.equal(text, '{"error":"Only one output type can be requested per request."}');
  });
});

describe('structured_data', () => {
  it("answers the page's JSON-LD, microdata and cards; a malformed block is skipped", async () => {
    const { response, text } = await scrape({ url: site.url('/lamp'), structured_data: 'true' });
    assert.equal(response.status, 200, text);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(text), {
      jsonLd: [{ '@type': 'Product', name: 'Desk lamp' }],
      microdata: [{ type: ['https://schema.org/Offer'], properties: { price: ['20'] } }],
      openGraph: { 'og:title': 'Desk lamp' },
      twitter: { 'twitter:card': 'summary' },
    });
  });
});

describe('a workflow with extract_rules', () => {
  it('saves the rules, runs them and records the run as an extract', async () => {
    const call = workflowClient(service.baseUrl, service.apiKey);
    const created = await call<{ id: string; config: Record<string, unknown> }>(
      'POST',
      '/api/workflow/create',
      {
        body: { name: 'shop', config: { url: site.url('/shop'), extract_rules: { title: 'h1' } } },
      },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.config.extract_rules, {
      title: { selector: 'h1', type: 'item', output: 'text', clean: true },
    });
    const { response, text } = await scrape({ workflow_id: created.body.id });
    assert.equal(response.status, 200, text);
    assert.deepEqual(JSON.parse(text), { title: 'The Shop' });
    const runs = await call<{ outputType: string }[]>(
      'GET',
      `/api/workflow/requests/${created.body.id}/`,
    );
    assert.equal(runs.status, 200, JSON.stringify(runs.body));
    assert.deepEqual(
      runs.body.map((run) => run.outputType),
      ['extract'],
    );
  });
});

describe('the model outputs without a model', () => {
  it('json_schema, json_prompt and summary are a 400 naming the settings, before any fetch or charge', async () => {
    const hits = site.hits('/shop');
    const before = await balance();
    for (const [params, what] of [
      [
        { json_schema: JSON.stringify({ type: 'object' }) },
        'The json_schema and json_prompt parameters',
      ],
      [{ json_prompt: 'The title' }, 'The json_schema and json_prompt parameters'],
      [{ summary: 'true' }, 'The summary parameter'],
    ] as const) {
      const { response, text } = await scrape({ url: site.url('/shop'), ...params });
      assert.equal(response.status, 400, text);
      assert.deepEqual(JSON.parse(text), {
        error: `${what} needs a language model and none is configured: set OPENAI_BASE_URL and MODEL_NAME (or OLLAMA_BASE_URL and MODEL_NAME, or OPENAI_API_KEY for OpenAI's API)`,
      });
    }
    assert.equal(site.hits('/shop'), hits);
    assert.equal(await balance(), before);
  });
});
