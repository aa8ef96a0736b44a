import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createProxyPools } from '../../src/scrape/net/proxy-pools.js';
import { parseScraperRequest } from '../../src/scrape/params/index.js';
import { createPlanner, type PlanRequest } from '../../src/scrape/plan.js';
import type { ProxyEndpoint } from '../../src/scrape/types.js';

const parse = (query: Record<string, string>) =>
  parseScraperRequest({ url: 'https://example.com/', ...query });

const { pricing } = loadConfig({});
const proxy = (n: number): ProxyEndpoint => ({
  url: `http://127.0.0.1:${9000 + n}`,
  type: 'residential',
  country: 'DE',
});
const planner = (proxies: ProxyEndpoint[] = []) =>
  createPlanner(createProxyPools(proxies), { allowPrivate: false }, pricing);

const request = (query: Record<string, string>): PlanRequest => ({
  requestId: 'r1',
  accountId: 'acct',
  concurrencyLimit: 10,
  workflowId: null,
  options: parse(query),
  createdAt: 1,
});

describe('the plan decides engine and output once', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, 'html', 'fetch'],
    [{ render: 'true' }, 'html', 'browser'],
    [{ markdown: 'true' }, 'markdown', 'fetch'],
    [{ markdown: 'true', render: '1' }, 'markdown', 'browser'],
    [{ screenshot: 'true', render: '1' }, 'screenshot', 'browser'],
    [{ screenshot_full_page: 'true', render: '1' }, 'screenshot', 'browser'],
    [{ screenshot: '1', screenshot_full_page: '1', render: '1' }, 'screenshot', 'browser'],
  ];
  for (const [query, output, engine] of cases) {
    it(`${JSON.stringify(query)} is ${output} by ${engine}`, () => {
      const plan = planner().plan(request(query));
      assert.equal(plan.output, output);
      assert.equal(plan.engine, engine);
    });
  }
});

describe('the plan is complete and immutable', () => {
  it('carries blockers, price and isolation key, and survives JSON as the job payload', () => {
    const plan = planner().plan(request({ render: 'true', block_ads: 'true' }));
    assert.deepEqual(plan.block, { ads: true, cookieBanners: false, chatWidgets: false });
    assert.equal(plan.price, 15);
    assert.equal(plan.isolationKey, 'acct');
    assert.deepEqual(plan.proxies, []);
    assert.deepEqual(JSON.parse(JSON.stringify(plan)), plan);
  });

  it('asks for no blockers with null', () => {
    assert.equal(planner().plan(request({})).block, null);
  });

  it('cannot be changed after planning', () => {
    const plan = planner().plan(request({}));
    assert.throws(() => {
      (plan as { price: number }).price = 0;
    }, TypeError);
    assert.throws(() => {
      (plan.options as { url: string }).url = 'https://elsewhere.example/';
    }, TypeError);
  });

  it('picks the proxies once per scrape, so consecutive scrapes rotate', () => {
    const p = planner([proxy(1), proxy(2)]);
    const query = { proxy_type: 'residential', proxy_country: 'DE' };
    const first = p.plan(request(query)).proxies.map((e) => e.url);
    const second = p.plan(request(query)).proxies.map((e) => e.url);
    assert.deepEqual(first, [proxy(1).url, proxy(2).url]);
    assert.deepEqual(second, [proxy(2).url, proxy(1).url]);
  });

  it('refuses a proxy type nobody configured with the contract text', () => {
    assert.throws(
      () => planner().plan(request({ proxy_type: 'mobile' })),
      /Proxy unavailable: no mobile proxy/,
    );
  });
});

describe('a plan with a choice reserves its first way and prices each', () => {
  const { baseFetch, baseRender, multipliers } = pricing;
  it('renderWhenNeeded: fetch first, the fetch price reserved, both priced', () => {
    const base = request({});
    const plan = planner().plan({ ...base, options: { ...base.options, renderWhenNeeded: true } });
    assert.equal(plan.engine, 'fetch');
    assert.equal(plan.price, baseFetch);
    assert.deepEqual(plan.prices, {
      'fetch:datacenter': baseFetch,
      'browser:datacenter': baseRender,
    });
  });

  it('proxyEscalation: residential proxies kept for a second try when the country has them', () => {
    const base = request({});
    const options = { ...base.options, proxyEscalation: true, proxyCountry: 'DE' };
    const withResidential = planner([
      proxy(1),
      { url: 'http://127.0.0.1:9100', type: 'datacenter', country: 'DE' },
    ]).plan({ ...base, options });
    assert.deepEqual(
      withResidential.escalation?.map((p) => p.type),
      ['residential'],
    );
    assert.equal(withResidential.price, Math.ceil(baseFetch * multipliers.datacenter));
    assert.equal(
      withResidential.prices?.['fetch:residential'],
      Math.ceil(baseFetch * multipliers.residential),
    );
    const without = planner().plan({
      ...base,
      options: { ...base.options, proxyEscalation: true },
    });
    assert.equal(without.escalation, null, 'no residential proxy: nothing to escalate to');
    assert.equal(without.prices, undefined);
    assert.equal(without.price, baseFetch);
  });

  it('a document request is the document output', () => {
    const base = request({});
    const plan = planner().plan({
      ...base,
      options: {
        ...base.options,
        document: {
          markdown: true,
          html: false,
          rawHtml: false,
          links: false,
          screenshot: null,
          onlyMainContent: true,
          includeTags: [],
          excludeTags: [],
          removeBase64Images: true,
        },
      },
    });
    assert.equal(plan.output, 'document');
  });
});

describe('planAllowed: the one call prepare makes, in contract 1.2 order', () => {
  it('answers the plan of a public target', async () => {
    const plan = await planner().planAllowed(request({ url: 'http://93.184.215.14/' }));
    assert.equal(plan.options.url, 'http://93.184.215.14/');
    assert.ok(Object.isFrozen(plan));
  });

  it('refuses a target that is not public with the address text', async () => {
    await assert.rejects(planner().planAllowed(request({ url: 'http://127.0.0.1/' })), {
      message: /URL is not allowed/,
    });
  });

  it('refuses a webhook that is not public, even with a public target', async () => {
    const query = { url: 'http://93.184.215.14/', webhook_url: 'http://10.0.0.1/hook' };
    await assert.rejects(planner().planAllowed(request(query)), {
      message: /URL is not allowed/,
    });
  });

  it('checks the proxy before the address: an unknown proxy type answers first', async () => {
    const query = { url: 'http://127.0.0.1/', proxy_type: 'mobile' };
    await assert.rejects(planner().planAllowed(request(query)), {
      message: /Proxy unavailable: no mobile proxy/,
    });
  });
});
