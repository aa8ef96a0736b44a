/**
 * GET /api/scraper (render=false) through HTTP: one sample of every refusal and failure of
 * contract 2, with its exact text, and proof that none of them is charged.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { balanceOf, startService, type TestService } from '../../helpers/service.js';

let site: FixtureSite;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  const proxies = join(tmpdir(), `pagegrab-proxies-${process.pid}.json`);
  // A configured proxy that is never reached: the refusals happen before any connection.
  writeFileSync(
    proxies,
    JSON.stringify([{ url: 'http://127.0.0.1:9', type: 'residential', country: 'DE' }]),
  );
  service = await startService({ credits: 100, env: { PROXIES_FILE: proxies } });
});
after(async () => {
  await service.close();
  await site.close();
});

async function scrape(query: string, key = service.apiKey) {
  const response = await fetch(`${service.baseUrl}/api/scraper?api_key=${key}&${query}`);
  const text = await response.text();
  return { status: response.status, text, headers: response.headers };
}

const url = (path: string) => `url=${encodeURIComponent(site.url(path))}`;

const balance = (key = service.apiKey) => balanceOf(service, key);

async function ledgerKinds(accountId: string): Promise<string[]> {
  const rows = await service.running.store.db
    .selectFrom('ledger')
    .select('kind')
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.kind);
}

describe('scraper refusals (400) with their exact texts', () => {
  // `{page}` stands for the fixture page's url parameter (the site starts after collection).
  const cases: [string, string, string][] = [
    ['an unknown parameter', `{page}&colour=red`, 'Unknown parameter: colour'],
    ['a bad boolean', `{page}&render=maybe`, 'Invalid value for render: expected true or false'],
    ['a missing url', 'markdown=true', 'URL is required!'],
    [
      'two output types',
      `{page}&render=true&markdown=true&screenshot=true`,
      'Only one output type can be requested per request.',
    ],
    ['screenshot without render', `{page}&screenshot=true`, 'screenshot requires render=true'],
    [
      'block_resources without render',
      `{page}&block_resources=image`,
      'block_resources requires render=true',
    ],
    [
      'a bad instruction',
      `{page}&render=true&instructions=${encodeURIComponent('[{"wait":"#a"},{"fill":{"value":"x"}}]')}`,
      'Invalid instruction at index 1: ',
    ],
    [
      "a step's selector that is not CSS",
      `{page}&render=true&instructions=${encodeURIComponent('[{"wait":"#a"},{"click":"div["}]')}`,
      'Invalid instruction at index 1: click selector "div[": not valid CSS: expected name, found the end',
    ],
    [
      'a proxy type with no proxy',
      `{page}&proxy_type=mobile`,
      'Proxy unavailable: no mobile proxy',
    ],
    [
      'a proxy country with no proxy',
      `{page}&proxy_type=residential&proxy_country=fr`,
      'Proxy unavailable: no residential proxy for country FR',
    ],
  ];
  for (const [what, query, text] of cases) {
    it(`${what}: 400 \`${text}\``, async () => {
      const before = await balance();
      const answer = await scrape(query.replace('{page}', url('/page')));
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      const { error } = JSON.parse(answer.text) as { error: string };
      if (text.endsWith(': ')) assert.ok(error.startsWith(text), error);
      else assert.equal(error, text);
      assert.equal(await balance(), before, 'not charged');
    });
  }
});

describe('a bad selector is refused before the page is loaded', () => {
  it('the target is never asked for, and no browser step runs', async () => {
    const steps = JSON.stringify([{ wait: 'main' }, { fill: { selector: '#q..x', text: 'a' } }]);
    const answer = await scrape(
      `${url('/selector-page')}&render=true&instructions=${encodeURIComponent(steps)}`,
    );
    assert.equal(answer.status, 400);
    assert.equal(
      JSON.parse(answer.text).error,
      'Invalid instruction at index 1: fill.selector selector "#q..x": not valid CSS: "." must be followed by a class name that starts with a letter, "_" or "-"',
    );
    assert.equal(site.hits('/selector-page'), 0);
  });
});

describe('scraper failures are answered and never charged', () => {
  it('402 `Insufficient credits to make the request.` on an empty balance', async () => {
    const broke = await service.addAccount(0);
    const answer = await scrape(url('/page'), broke.apiKey);
    assert.equal(answer.status, 402);
    assert.equal(answer.text, '{"error":"Insufficient credits to make the request."}');
    assert.equal(site.hits('/page') >= 0, true);
  });

  it('502 `Failed to fetch the page: ...` for an unreachable target, refunded', async () => {
    const account = await service.addAccount(5);
    const answer = await scrape('url=http%3A%2F%2F127.0.0.1%3A1%2F', account.apiKey);
    assert.equal(answer.status, 502);
    assert.match(JSON.parse(answer.text).error, /^Failed to fetch the page: .+/);
    assert.equal(answer.headers.get('x-credits-used'), '0');
    assert.equal(await balance(account.apiKey), 5);
    assert.deepEqual(await ledgerKinds(account.id), ['grant', 'reserve', 'refund']);
  });

  it('504 `Timed out after 1000 ms` with timeout=1000 on a 5 s page, refunded', async () => {
    const account = await service.addAccount(5);
    const answer = await scrape(`${url('/slow?ms=5000')}&timeout=1000`, account.apiKey);
    // The budget's text, not the page's. Whether the target was reached before the budget
    // ran out depends on the machine's speed, so it is not asserted.
    assert.equal(answer.status, 504);
    assert.equal(answer.text, '{"error":"Timed out after 1000 ms"}');
    assert.equal(await balance(account.apiKey), 5);
    assert.deepEqual(await ledgerKinds(account.id), ['grant', 'reserve', 'refund']);
  });

  it('a bad request leaves no ledger movement at all', async () => {
    const account = await service.addAccount(5);
    const answer = await scrape(`${url('/page')}&render=perhaps`, account.apiKey);
    assert.equal(answer.status, 400);
    assert.deepEqual(await ledgerKinds(account.id), ['grant']);
  });

  it('429 `Too many concurrent requests` for the 11th while 10 are in flight', async () => {
    const account = await service.addAccount(100, 10);
    site.resetCounters();
    const held = Array.from({ length: 10 }, () => scrape(url('/slow?ms=2500'), account.apiKey));
    const deadline = Date.now() + 10_000;
    while (site.hits('/slow') < 10 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(site.hits('/slow'), 10, 'all ten reached the target');
    const eleventh = await scrape(url('/page'), account.apiKey);
    assert.equal(eleventh.status, 429);
    assert.equal(eleventh.text, '{"error":"Too many concurrent requests"}');
    const answers = await Promise.all(held);
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(200),
    );
    assert.equal(await balance(account.apiKey), 90, 'ten charged, the 429 refunded');
  });
});

describe('address guard with allowPrivateNetworks: false', () => {
  it('refuses a loopback target with 400 `URL is not allowed: ...` before any connection', async () => {
    const guarded = await startService({ allowPrivateNetworks: false });
    try {
      site.resetCounters();
      const response = await fetch(
        `${guarded.baseUrl}/api/scraper?api_key=${guarded.apiKey}&${url('/page')}`,
      );
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), {
        error: 'URL is not allowed: 127.0.0.1 resolves to a non-public address',
      });
      assert.equal(site.totalHits(), 0);
      const account = await fetch(`${guarded.baseUrl}/api/account?api_key=${guarded.apiKey}`);
      assert.equal(((await account.json()) as { credits: number }).credits, 1000);
    } finally {
      await guarded.close();
    }
  });
});
