/**
 * The request log (GET /api/requests, /api/requests/{id}, /api/requests/{id}/result) and
 * the overview's figures (GET /api/account/usage), on both engines: every scrape leaves a
 * record (one-off, workflow, Firecrawl door, failed ones too), filters and keyset pages
 * find exactly the matching records, and a record is only ever its own account's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { saveRunRecord } from '../../../src/store/run-records.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { freePort } from '../../helpers/free-port.js';
import { sampleRunRecord } from '../../helpers/run-record.js';
import { startService, type TestService } from '../../helpers/service.js';
import { type Call, workflowClient } from '../../helpers/workflow-http.js';

interface LogRecord {
  id: string;
  source: string;
  workflowId: string | null;
  url: string;
  host: string | null;
  status: string;
  statusCode: number | null;
  creditsSpent: number;
  createdAt: string;
}
interface Page {
  records: LogRecord[];
  next: string | null;
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`the request log (${engine})`, () => {
    let service: TestService;
    let site: FixtureSite;
    let call: Call;
    let deadPort: number;

    before(async () => {
      [service, site, deadPort] = await Promise.all([
        startService({ postgres: engine === 'postgres' }),
        startFixtureSite(),
        freePort(),
      ]);
      call = workflowClient(service.baseUrl, service.apiKey);
      site.html('/one', '<html><body><p>one-off page</p></body></html>');
      site.html('/wf', '<p>workflow page</p>');
    });
    after(async () => {
      await service.close();
      await site.close();
    });

    const scrape = (url: string) =>
      fetch(`${service.baseUrl}/api/scraper?url=${encodeURIComponent(url)}`, {
        headers: { 'X-API-Key': service.apiKey },
      });

    test('every scrape leaves a record: one-off, workflow run, Firecrawl door and failures', async () => {
      const oneOff = await scrape(`${site.origin}/one`);
      assert.equal(oneOff.status, 200);
      const oneOffBody = await oneOff.text();
      const oneOffId = oneOff.headers.get('x-request-id');
      const failed = await scrape(`http://127.0.0.1:${deadPort}/gone`);
      assert.equal(failed.status, 502);
      const created = await call<{ id: string }>('POST', '/api/workflow/create', {
        body: { name: 'log', config: { url: `${site.origin}/wf` } },
      });
      const run = await fetch(
        `${service.baseUrl}/api/scraper?workflow_id=${created.body.id}&api_key=${service.apiKey}`,
      );
      assert.equal(run.status, 200);
      const door = await fetch(`${service.baseUrl}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.origin}/one`, formats: ['markdown'] }),
      });
      assert.equal(door.status, 200);

      const page = await call<Page>('GET', '/api/requests');
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.records.map((r) => [r.source, r.status, r.statusCode]),
        [
          ['firecrawl', 'success', 200],
          ['workflow', 'success', 200],
          ['api', 'failed', 502],
          ['api', 'success', 200],
        ],
      );
      assert.equal(page.body.next, null);
      assert.equal(page.body.records[1]?.workflowId, created.body.id);
      assert.equal(page.body.records[3]?.id, oneOffId);
      // The host keeps its port: two services on one address are two targets.
      assert.equal(page.body.records[3]?.host, site.origin.slice('http://'.length));
      assert.equal(page.body.records[2]?.host, `127.0.0.1:${deadPort}`);

      const detail = await call<{
        record: LogRecord;
        params: { url: string; render: boolean };
        finishedAt: string;
        result: { contentType: string; size: number } | null;
      }>('GET', `/api/requests/${oneOffId}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.params.url, `${site.origin}/one`);
      assert.equal(detail.body.params.render, false);
      assert.ok(Date.parse(detail.body.finishedAt) >= Date.parse(detail.body.record.createdAt));
      assert.equal(detail.body.result?.size, Buffer.byteLength(oneOffBody));

      const result = await fetch(
        `${service.baseUrl}/api/requests/${oneOffId}/result?api_key=${service.apiKey}`,
      );
      assert.equal(result.status, 200);
      assert.match(result.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(result.headers.get('content-security-policy'), 'sandbox');
      assert.equal(await result.text(), oneOffBody);

      const failedId = page.body.records[2]?.id;
      const noResult = await call('GET', `/api/requests/${failedId}/result`);
      assert.deepEqual(
        [noResult.status, noResult.body],
        [404, { error: 'No result is kept for this request' }],
      );
    });

    test("the host filter with a port finds that port's records only", async () => {
      const host = site.origin.slice('http://'.length);
      const byHost = async (h: string) =>
        (await call<Page>('GET', `/api/requests?host=${encodeURIComponent(h)}`)).body.records.map(
          (r) => [r.source, r.statusCode],
        );
      assert.deepEqual(await byHost(host), [
        ['firecrawl', 200],
        ['workflow', 200],
        ['api', 200],
      ]);
      assert.deepEqual(await byHost(`127.0.0.1:${deadPort}`), [['api', 502]]);
      assert.deepEqual(await byHost('127.0.0.1'), []);
    });

    test('filters by status, host, workflow, source, URL text and time, each exactly', async () => {
      const { db } = service.running.store;
      const t0 = Date.parse('2026-01-10T00:00:00Z');
      const records = [
        sampleRunRecord({
          accountId: service.accountId,
          workflowId: null,
          url: 'https://a.example/x',
          createdAt: t0,
        }),
        sampleRunRecord({
          accountId: service.accountId,
          workflowId: null,
          url: 'https://b.example/needle',
          status: 'failed',
          statusCode: 502,
          createdAt: t0 + 1000,
        }),
        sampleRunRecord({
          accountId: service.accountId,
          workflowId: null,
          url: 'https://a.example/y',
          createdAt: t0 + 2000,
        }),
      ];
      // Ids as the service makes them: UUIDv7 of the record's time.
      for (const [i, record] of records.entries()) {
        record.id = `${(t0 + i * 1000)
          .toString(16)
          .padStart(12, '0')
          .replace(/^(.{8})(.{4})$/, '$1-$2')}-7000-8000-00000000000${i}`;
        await db.transaction().execute((trx) => saveRunRecord(trx, record));
      }
      const ids = async (query: string) =>
        (await call<Page>('GET', `/api/requests?${query}`)).body.records.map((r) => r.id);
      const [x, needle, y] = records.map((r) => r.id);
      assert.deepEqual(await ids('host=a.example'), [y, x]);
      assert.deepEqual(await ids('host=b.example&status=failed'), [needle]);
      assert.deepEqual(await ids('q=NEEDLE'), [needle]);
      assert.deepEqual(await ids('from=2026-01-10T00:00:01Z&to=2026-01-10T00:00:02Z'), [needle]);
      assert.deepEqual(await ids(`to=${t0 + 1000}`), [x]);
      assert.deepEqual(await ids('source=firecrawl&host=a.example'), []);
      const workflowRows = await ids('source=workflow');
      assert.equal(workflowRows.length, 1);
      const wf = (await call<Page>('GET', '/api/requests?source=workflow')).body.records[0];
      assert.deepEqual(await ids(`workflow_id=${wf?.workflowId}`), [wf?.id]);
    });

    test('pages by keyset: every record once, newest first, then next is null', async () => {
      const all = (await call<Page>('GET', '/api/requests?limit=200')).body.records.map(
        (r) => r.id,
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `limit=2&before=${cursor}` : 'limit=2';
        const page: Page = (await call<Page>('GET', `/api/requests?${query}`)).body;
        assert.ok(page.records.length <= 2);
        seen.push(...page.records.map((r) => r.id));
        cursor = page.next;
      } while (cursor);
      assert.deepEqual(seen, all);
      assert.deepEqual([...all].sort().reverse(), all);
    });

    test("another account's record is not found, and bad queries are 400 with their reason", async () => {
      const other = await service.addAccount(10);
      const mine = (await call<Page>('GET', '/api/requests?limit=1')).body.records[0];
      const theirs = workflowClient(service.baseUrl, other.apiKey);
      assert.deepEqual((await theirs<Page>('GET', '/api/requests')).body, {
        records: [],
        next: null,
      });
      const hidden = await theirs('GET', `/api/requests/${mine?.id}`);
      assert.deepEqual([hidden.status, hidden.body], [404, { error: 'Request not found!' }]);
      const hiddenResult = await theirs('GET', `/api/requests/${mine?.id}/result`);
      assert.equal(hiddenResult.status, 404);
      const cases: [string, string][] = [
        ['status=done', 'Invalid value for status: expected one of success, failed, pending'],
        ['limit=0', 'Invalid value for limit: expected an integer from 1 to 200'],
        ['from=yesterday', 'Invalid value for from: expected an ISO 8601 time or epoch ms'],
        ['before=nope', 'Invalid value for before: expected the id of a request record'],
        ['colour=red', 'Unknown parameter: colour'],
      ];
      for (const [query, error] of cases) {
        const answer = await call('GET', `/api/requests?${query}`);
        assert.deepEqual([answer.status, answer.body], [400, { error }], query);
      }
      const anonymous = await call('GET', '/api/requests', { key: null });
      assert.deepEqual(
        [anonymous.status, anonymous.body],
        [403, { error: 'API Key is required!' }],
      );
    });

    test('the usage has 30 days ending today, with the credits and outcomes of the log', async () => {
      const usage = await call<{
        credits: number;
        days: { date: string; credits: number; requests: number; failed: number }[];
        outcomes: { success: number; failed: number };
        slowest: { host: string }[];
        failing: { host: string; failed: number }[];
      }>('GET', '/api/account/usage');
      assert.equal(usage.status, 200);
      assert.equal(usage.body.days.length, 30);
      const today = usage.body.days.at(-1);
      assert.equal(today?.date, new Date().toISOString().slice(0, 10));
      // Today's records: the four scrapes of the first test (the seeded ones are in January).
      assert.equal(today?.requests, 4);
      assert.equal(today?.failed, 1);
      assert.equal(today?.credits, 3);
      assert.equal(usage.body.outcomes.failed, 1);
      assert.deepEqual(
        usage.body.failing.map((t) => [t.host, t.failed]),
        [[`127.0.0.1:${deadPort}`, 1]],
      );
      const hosts = usage.body.slowest.map((t) => t.host);
      assert.ok(hosts.includes(site.origin.slice('http://'.length)), hosts.join());
      assert.equal(usage.body.credits, 1000 - 3);
    });
  });
}
