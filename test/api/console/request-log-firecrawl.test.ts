/**
 * The request log's record of a Firecrawl-door scrape and of a crawl's page: its parameters
 * are the request as the caller made it (the Firecrawl body, header values hidden), and its
 * kept result is the Document as the caller got it, with the credits charged and the scrape
 * id in its metadata.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';

let service: TestService;
let site: FixtureSite;

before(async () => {
  [service, site] = await Promise.all([startService(), startFixtureSite()]);
  site.html(
    '/doc',
    '<html><head><title>Doc</title></head><body><main><h1>Doc</h1><p>Kept as asked.</p></main></body></html>',
  );
});
after(async () => {
  await service.close();
  await site.close();
});

const native = (path: string) =>
  fetch(`${service.baseUrl}${path}`, { headers: { 'X-API-Key': service.apiKey } });
const door = (method: string, path: string, body?: unknown) =>
  fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

interface Detail {
  record: { id: string; source: string; creditsSpent: number };
  params: Record<string, unknown>;
  result: { contentType: string } | null;
}

async function keptDocument(id: string) {
  // Kept results are written behind the answer.
  await until(
    async () => ((await (await native(`/api/requests/${id}`)).json()) as Detail).result !== null,
    10_000,
  );
  const res = await native(`/api/requests/${id}/result`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return (await res.json()) as { markdown?: string; metadata: Record<string, unknown> };
}

test('a Firecrawl scrape is logged as the body it was sent with, and kept as the Document answered', async () => {
  const body = {
    url: `${site.origin}/doc`,
    formats: ['markdown'],
    onlyMainContent: true,
    headers: { Authorization: 'Bearer target-secret' },
  };
  const res = await door('POST', '/v2/scrape', body);
  assert.equal(res.status, 200);
  const answer = (await res.json()) as {
    data: { markdown: string; metadata: Record<string, unknown> };
  };
  const id = answer.data.metadata.scrapeId as string;
  assert.ok(id);

  const detail = (await (await native(`/api/requests/${id}`)).json()) as Detail;
  assert.equal(detail.record.source, 'firecrawl');
  assert.deepEqual(detail.params, {
    door: 'firecrawl',
    version: 'v2',
    body: { ...body, headers: { Authorization: '(hidden)' } },
  });

  const kept = await keptDocument(id);
  assert.equal(kept.markdown, answer.data.markdown);
  assert.equal(kept.metadata.scrapeId, id);
  assert.ok(detail.record.creditsSpent > 0);
  assert.equal(kept.metadata.creditsUsed, detail.record.creditsSpent);
  assert.equal(kept.metadata.creditsUsed, answer.data.metadata.creditsUsed);
});

test("a crawl's page is logged as its URL with the crawl's scrapeOptions, and kept with its charge and id", async () => {
  const started = await door('POST', '/v2/crawl', {
    url: `${site.origin}/doc`,
    limit: 1,
    scrapeOptions: { formats: ['markdown'], maxAge: 0 },
  });
  assert.equal(started.status, 200);
  const { id: crawlId } = (await started.json()) as { id: string };
  await until(async () => {
    const status = (await (await door('GET', `/v2/crawl/${crawlId}`)).json()) as {
      status: string;
    };
    return status.status !== 'scraping';
  }, 30_000);

  const log = (await (await native('/api/requests?source=crawl')).json()) as {
    records: { id: string }[];
  };
  assert.equal(log.records.length, 1);
  const id = log.records[0]?.id ?? '';
  const detail = (await (await native(`/api/requests/${id}`)).json()) as Detail;
  assert.deepEqual(detail.params, {
    door: 'firecrawl',
    version: 'v2',
    body: { url: `${site.origin}/doc`, formats: ['markdown'], maxAge: 0 },
    batchId: crawlId,
  });

  const kept = await keptDocument(id);
  assert.match(kept.markdown ?? '', /Kept as asked/);
  assert.equal(kept.metadata.scrapeId, id);
  assert.ok(detail.record.creditsSpent > 0);
  assert.equal(kept.metadata.creditsUsed, detail.record.creditsSpent);
});
