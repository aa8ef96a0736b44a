/**
 * A full node answers every door alike: 503 with Retry-After (so a balancer retrying 503s
 * moves the call to another node), decided before any database work: no reservation, no
 * ledger row, no request record for the refused call. The account's own limit stays 429.
 * The node is held full by scrapes of a loopback page that answers only when the test says.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';
import { until } from '../helpers/until.js';

/** Node-wide scrapes in flight (NODE_CONCURRENCY): tiny, so two slow pages fill it. */
const NODE_SLOTS = 2;

let site: FixtureSite;
let service: TestService;
const waiting: ServerResponse[] = [];

before(async () => {
  site = await startFixtureSite();
  // Held until `releaseSlowPages`: the scrapes stay in flight as long as the test needs.
  site.route('/slow', (_req, res) => {
    waiting.push(res);
  });
  site.html('/fast', '<!doctype html><title>fast</title><p>fast</p>');
  service = await startService({ env: { NODE_CONCURRENCY: String(NODE_SLOTS) } });
});
after(async () => {
  releaseSlowPages();
  await service?.close();
  await site?.close();
});

function releaseSlowPages() {
  for (const res of waiting.splice(0)) {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow page</p>');
  }
}

function nativeScrape(apiKey: string, path: string) {
  const query = new URLSearchParams({ url: site.url(path) });
  return fetch(`${service.baseUrl}/api/scraper?${query}`, { headers: { 'X-API-Key': apiKey } });
}

function firecrawlScrape(apiKey: string, version: 'v1' | 'v2', path: string) {
  return fetch(`${service.baseUrl}/${version}/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: site.url(path), formats: ['markdown'] }),
  });
}

async function rowCounts() {
  const { db } = service.running.store;
  const count = async (table: 'ledger' | 'requests') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { ledger: await count('ledger'), requests: await count('requests') };
}

async function inFlight(): Promise<number> {
  const response = await fetch(`${service.baseUrl}/pressure`);
  const body = (await response.json()) as { scrapes: { inFlight: number } };
  return body.scrapes.inFlight;
}

describe('a saturated node', () => {
  it('answers 503 with Retry-After on every door, before any reservation or record', async () => {
    const held = [
      nativeScrape(service.apiKey, '/slow'),
      firecrawlScrape(service.apiKey, 'v2', '/slow'),
    ];
    await until(() => waiting.length === NODE_SLOTS, 15_000);
    assert.equal(await inFlight(), NODE_SLOTS);
    const before = await rowCounts();

    const refused = [
      await nativeScrape(service.apiKey, '/fast'),
      await firecrawlScrape(service.apiKey, 'v1', '/fast'),
      await firecrawlScrape(service.apiKey, 'v2', '/fast'),
    ];
    for (const response of refused) {
      const body = (await response.json()) as { error: string };
      assert.equal(response.status, 503, `${response.url}: ${JSON.stringify(body)}`);
      assert.ok(Number(response.headers.get('retry-after')) > 0, `${response.url}: Retry-After`);
      assert.equal(body.error, 'Service is at capacity, retry later');
    }
    assert.deepEqual(await rowCounts(), before, 'no ledger row and no request record');

    releaseSlowPages();
    const answers = await Promise.all(held);
    assert.deepEqual(
      answers.map((response) => response.status),
      [200, 200],
    );
    await Promise.all(answers.map((response) => response.arrayBuffer()));
    await until(async () => (await inFlight()) === 0);
  });

  it('still answers 429 for the account’s own limit, on both doors', async () => {
    releaseSlowPages();
    await until(async () => (await inFlight()) === 0, 15_000);
    const account = await service.addAccount(100, 1);
    const held = nativeScrape(account.apiKey, '/slow');
    await until(() => waiting.length === 1, 15_000);

    const overLimit = [
      await nativeScrape(account.apiKey, '/fast'),
      await firecrawlScrape(account.apiKey, 'v2', '/fast'),
    ];
    for (const response of overLimit) {
      const body = (await response.json()) as { error: string };
      assert.equal(response.status, 429, `${response.url}: ${JSON.stringify(body)}`);
      assert.equal(body.error, 'Too many concurrent requests');
    }

    releaseSlowPages();
    assert.equal((await held).status, 200);
  });
});
