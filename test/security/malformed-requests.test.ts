/**
 * Issue 24's fuzz: 10,000 malformed requests written on raw sockets to the real service (bad
 * request lines, bad headers, bad framing and chunking, huge or odd headers, bad JSON, wrong
 * content types, truncated bodies) on the native and the Firecrawl routes, from a seeded
 * generator (MALFORMED_SEED replays a run). Each connection carries one request and gets at
 * most one answer: a complete HTTP response with a JSON body and no 5xx, or a close. After
 * them all the service still answers a normal request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exchange, type RawExchange } from '../helpers/raw-http.js';
import { type Random, seededRandom } from '../helpers/seeded-random.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let port: number;

before(async () => {
  service = await startService();
  port = Number(new URL(service.baseUrl).port);
});
after(() => service.close());

/** Routes whose every answer is JSON (no dashboard, metrics or docs pages). */
const NATIVE: [string, string][] = [
  ['GET', '/api/scraper'],
  ['GET', '/api/account'],
  ['GET', '/healthz'],
  ['POST', '/api/workflow/create'],
  ['PATCH', '/api/workflow/edit/01a2'],
  ['PUT', '/api/workflow/01a2/schedule'],
  ['POST', '/api/keys'],
  ['GET', '/api/requests'],
];
const FIRECRAWL: [string, string][] = [
  ['POST', '/v1/scrape'],
  ['POST', '/v2/scrape'],
  ['POST', '/v2/crawl'],
  ['POST', '/v2/batch/scrape'],
  ['POST', '/v2/map'],
  ['DELETE', '/v1/crawl/01a2'],
  ['GET', '/v2/team/credit-usage'],
];

const BAD_JSON = [
  '{',
  '{"url":',
  'nul',
  '[1,2',
  '\u0000',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{}}}',
  '{"url":"\ud800"}',
  '"unterminated',
  '{} {}',
  '{"url":1e999999}',
  `${'['.repeat(300)}${']'.repeat(300)}`,
  `{"config":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`,
  '{"urls":[{}],"url":[]}',
  '{"formats":[{"type":"json","schema":{"$ref":"#"}}]}',
  '{"actions":[{"type":"click"}]}',
  '\ufeff{}',
  '{"url":"http://127.0.0.1:1/"', // no closing brace
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonx',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  'application/json, text/plain',
  ';;;',
];
const METHODS = ['G\u00c9T', 'GET GET', '', 'get', 'FOO', 'P0ST', '\u0000', 'DELETE', 'PATCH'];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', 'HTTP/1', 'http/1.1', 'HTTP/1.1 x', ''];
const TRANSFER_ENCODINGS = [
  'chunked',
  'xchunked',
  'gzip',
  'chunked, gzip',
  'gzip, chunked',
  'identity',
  'chunked\u0000',
  ' chunked',
];
const ODD_HEADER_LINES = [
  'NoColon',
  'Space Before : x',
  'Bad\u0001Name: x',
  ' folded: continuation',
  'X-Nul: a\u0000b',
  'Content-Length: abc',
  'Content-Length: -1',
  'Content-Length: 99999999999999999999',
  'Content-Length: 1\r\nContent-Length: 2',
  ': empty-name',
  'X-Tab:\tvalue',
  'Expect: 100-continue',
  'Expect: nothing',
];

interface FuzzRequest {
  bytes: Buffer;
  /** The request stops short: the client half-closes, so the server sees the end. */
  truncated: boolean;
  label: string;
}

function body(rng: Random): string {
  if (rng.int(5) === 0) return `{"url":"http://127.0.0.1:1/","x":${rng.pick(BAD_JSON)}}`;
  return rng.pick(BAD_JSON);
}

/** A chunked body, mostly broken; `short`: a chunk longer than its data (the rest never comes). */
function chunked(text: string, rng: Random): { payload: string; short: boolean } {
  const data = Buffer.from(text);
  const size = rng.int(6);
  return { payload: chunkedAs(size, text, data.length), short: size === 1 };
}

function chunkedAs(kind: number, text: string, length: number): string {
  switch (kind) {
    case 0:
      return `zz\r\n${text}\r\n0\r\n\r\n`;
    case 1:
      return `${(length + 5).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
    case 2:
      return `${length.toString(16)};ext="\u0000"\r\n${text}\r\n0\r\n\r\n`;
    case 3:
      return `${length.toString(16)}\r\n${text}0\r\n\r\n`;
    case 4:
      return `-1\r\n${text}\r\n0\r\n\r\n`;
    default:
      return `${length.toString(16)}\r\n${text}\r\n0\r\n\r\n`;
  }
}

function fuzzRequest(rng: Random, key: string): FuzzRequest {
  let [method, path] = rng.pick(rng.int(2) === 0 ? NATIVE : FIRECRAWL);
  let version = 'HTTP/1.1';
  const headers: string[] = ['Host: 127.0.0.1', 'Connection: close'];
  let payload = '';
  let truncated = false;
  const kind = rng.int(8);
  const keyed = rng.int(3) !== 0;
  if (keyed) {
    const given = rng.int(4) === 0 ? 'pgk_wrong' : key;
    if (path.startsWith('/v')) headers.push(`Authorization: Bearer ${given}`);
    else path += `?api_key=${given}`;
  }
  switch (kind) {
    case 0: // the request line
      method = rng.pick([...METHODS, method]);
      version = rng.pick(VERSIONS);
      // Not `*` nor `//`: well-formed requests the dashboard answers with its page.
      if (rng.int(3) === 0) path = rng.pick(['http://127.0.0.1/healthz', '', '/\u0000', '/%']);
      break;
    case 1: // odd header lines
      for (let i = rng.int(3); i >= 0; i--) headers.push(rng.pick(ODD_HEADER_LINES));
      if (rng.int(3) === 0) headers.splice(0, 1); // no Host
      break;
    case 2: // huge headers
      headers.push(`X-Big: ${'b'.repeat(rng.int(2) === 0 ? 17_000 : 8_000)}`);
      if (rng.int(4) === 0) for (let i = 0; i < 200; i++) headers.push(`X-H${i}: ${i}`);
      break;
    case 3: {
      // chunked framing, good and bad
      const framed = chunked(body(rng), rng);
      payload = framed.payload;
      truncated = framed.short;
      headers.push(`Transfer-Encoding: ${rng.pick(TRANSFER_ENCODINGS)}`);
      if (rng.int(2) === 0) headers.push(`Content-Type: ${rng.pick(CONTENT_TYPES)}`);
      if (rng.int(4) === 0) headers.push('Content-Length: 5');
      break;
    }
    case 4: // truncated bodies
      payload = body(rng);
      headers.push('Content-Type: application/json');
      headers.push(`Content-Length: ${Buffer.byteLength(payload) + 1 + rng.int(1000)}`);
      truncated = true;
      break;
    case 5: // a chunked body cut short
      payload = `100\r\n${body(rng)}`;
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      truncated = true;
      break;
    default: // bad JSON and wrong content types on every route and method
      payload = body(rng);
      method = rng.int(4) === 0 ? rng.pick(['POST', 'PUT', 'PATCH', 'DELETE', 'GET']) : method;
      if (rng.int(5) !== 0) headers.push(`Content-Type: ${rng.pick(CONTENT_TYPES)}`);
      headers.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  }
  const head = `${method} ${path} ${version}`.trimEnd();
  const bytes = Buffer.from(`${head}\r\n${headers.join('\r\n')}\r\n\r\n${payload}`);
  return { bytes, truncated, label: `[${kind}] ${head.slice(0, 80)}` };
}

/** What is wrong with one exchange, if anything. */
function problemOf(result: RawExchange): string | null {
  if (!result.closed && result.responses.length === 0) return 'no answer and no close';
  if (result.responses.length > 1) {
    return `${result.responses.length} answers: ${result.responses.map((r) => r.status)}`;
  }
  if (result.leftover !== '') return `bytes after the answer: ${result.leftover.slice(0, 60)}`;
  const [answer] = result.responses;
  if (!answer) return null;
  if (answer.status >= 500) return `${answer.status} ${answer.body.slice(0, 120)}`;
  if (!/^application\/json/.test(answer.headers.get('content-type') ?? '')) {
    return `${answer.status} with content type ${answer.headers.get('content-type')}`;
  }
  try {
    JSON.parse(answer.body);
  } catch {
    return `${answer.status} with a body that is not JSON: ${answer.body.slice(0, 60)}`;
  }
  return null;
}

describe('10,000 malformed raw requests', () => {
  it('get at most one answer each, JSON and never 5xx, and the service keeps serving', async () => {
    const seed = Number(process.env.MALFORMED_SEED ?? Date.now() % 1_000_000);
    const rng = seededRandom(seed);
    const requests = Array.from({ length: 10_000 }, () => fuzzRequest(rng, service.apiKey));
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++] as FuzzRequest;
        const result = await exchange(port, request.bytes, {
          endAfterWrite: request.truncated,
          // Only a guard against a hang: an answer comes at once.
          timeoutMs: 15_000,
          settleMs: 200,
        });
        const status = result.responses[0]?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const problem = problemOf(result);
        if (problem) problems.push(`${problem} for ${request.label}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    assert.deepEqual(problems.slice(0, 15), [], `seed ${seed}: ${problems.length} problems`);

    // The mix reached the parser's refusals, the body checks and the routes themselves.
    const seen = [...statuses.keys()];
    for (const status of [400, 401, 404, 415, 431]) {
      assert.ok(seen.includes(status), `no ${status} in ${JSON.stringify([...statuses])}`);
    }

    const health = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    const account = await fetch(`${service.baseUrl}/api/account?api_key=${service.apiKey}`);
    assert.equal(account.status, 200);
  });
});
