/**
 * Issue 24, point 4 and the Host part of point 8: what Node's HTTP parser refuses part-way
 * through a request. A request the app has already answered (a 415 sent on the headers alone)
 * whose body then turns out unparsable (a bad Transfer-Encoding, a bad chunk) used to get a
 * second answer, a 400, on the same connection. One answer per request at most, then close.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exchange } from '../helpers/raw-http.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let port: number;

before(async () => {
  service = await startService();
  port = Number(new URL(service.baseUrl).port);
});
after(() => service.close());

const CASES = {
  'POST /v2/crawl with Transfer-Encoding: xchunked and no content type':
    'POST /v2/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
  'POST /v1/scrape with Transfer-Encoding: gzip':
    'POST /v1/scrape HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\nabc',
  'PUT / with a bad chunk size':
    'PUT / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  'POST /api/workflow/create with a bad chunk after a good one':
    'POST /api/workflow/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\nqq\r\n',
};

describe('a request whose body the HTTP parser refuses', () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    it(`gets one answer and the connection closes: ${name}`, async () => {
      const { responses, leftover, closed } = await exchange(port, bytes);
      assert.equal(closed, true, 'the server closed the connection');
      assert.equal(responses.length, 1, `one answer: ${responses.map((r) => r.status).join(', ')}`);
      assert.equal(leftover, '', 'nothing after the answer');
      const [answer] = responses;
      assert.ok(answer && answer.status >= 400 && answer.status < 500, `status ${answer?.status}`);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      JSON.parse(answer.body);
    });
  }

  it('leaves the service answering the next request', async () => {
    const health = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(health.status, 200);
  });
});

describe('an HTTP/1.1 request without a Host header', () => {
  it('gets a JSON 400 with its X-Request-Id', async () => {
    const { responses } = await exchange(
      port,
      'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n',
    );
    assert.equal(responses.length, 1);
    const [answer] = responses;
    assert.equal(answer?.status, 400);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(JSON.parse(answer.body), { error: 'Host header is required' });
    assert.match(answer.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('gets it in the envelope of the Firecrawl door there', async () => {
    const request = `POST /v2/scrape HTTP/1.1\r\nAuthorization: Bearer ${service.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
    const { responses } = await exchange(port, request);
    const [answer] = responses;
    assert.equal(answer?.status, 400);
    assert.equal(JSON.parse(answer.body).error, 'Host header is required');
  });

  it('is still served over HTTP/1.0, where Host is optional', async () => {
    const { responses } = await exchange(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    assert.equal(responses[0]?.status, 200);
  });
});

describe('an Expect header other than 100-continue', () => {
  it("gets a JSON 417 with its X-Request-Id, not Node's empty one", async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: nothing\r\n\r\n';
    const { responses } = await exchange(port, request);
    assert.equal(responses.length, 1);
    const [answer] = responses;
    assert.equal(answer?.status, 417);
    assert.deepEqual(JSON.parse(answer.body), { error: 'Only Expect: 100-continue is supported' });
    assert.match(answer.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
