/**
 * Contract 1.3 under hostile input: 2,000 randomly generated bad requests (bad JSON bodies,
 * bad methods, odd paths with `%`, `..`, unicode or great length, headers over 16 KB, bad
 * query strings) sent over raw sockets, so that malformed ones reach the server as written.
 * None may answer 500, and every error must be a JSON `{"error": string}` body.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Random, seededRandom } from '../helpers/seeded-random.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let port: number;

before(async () => {
  service = await startService();
  port = Number(new URL(service.baseUrl).port);
});
after(() => service.close());

const ROUTES = [
  '/api/account',
  '/api/scraper',
  '/healthz',
  '/readyz',
  '/api/workflow',
  '/api/workflow/create',
  '/api/openapi.json',
  '/nope',
  '/',
];
const ODD_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%2e%2e',
  '..',
  '../..',
  '%2F',
  '\u00e9t\u00e9',
  '\u{1F600}',
  '\uFFFD',
  ';x',
  '%C0%AE',
  '~',
  '*',
  '#',
  '\u202e',
];
const ODD_QUERIES = [
  'api_key=%',
  'url=%E0%A4%A',
  'a[b]=1',
  'render=true&render=false',
  'url=javascript:alert(1)',
  'timeout=-1',
  'timeout=1e309',
  'instructions=%5B%7B',
  'config=%7B',
  '&&&',
  '=',
  'api_key',
  '%',
  'url=http://[::1',
  'block_resources=,,,',
  'proxy_country=\u00e9',
];
const BAD_BODIES = [
  '{',
  '{"a":',
  'nul',
  '[1,2',
  '\u0000',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{}}}',
  'x'.repeat(3000),
  '{"name":"\ud800"}',
  '"unterminated',
  '{} {}',
];

function oddPath(rng: Random): string {
  const parts = [rng.pick(ROUTES).replace(/\/$/, '')];
  const extra = rng.int(4);
  for (let i = 0; i < extra; i++) parts.push(rng.pick(ODD_SEGMENTS));
  if (rng.int(10) === 0) parts.push('a'.repeat(2000 + rng.int(20000)));
  // Raw unicode bytes in the request line are sent as UTF-8 on purpose.
  return parts.join('/') || '/';
}

function rawRequest(rng: Random, key: string): { head: string; body: Buffer; method: string } {
  const kind = rng.int(5);
  let method = 'GET';
  let path = rng.pick(ROUTES);
  const headers: string[] = ['Host: 127.0.0.1', 'Connection: close'];
  let body = Buffer.alloc(0);
  const withKey = rng.int(2) === 0 ? `api_key=${key}` : '';
  switch (kind) {
    case 0: {
      method = rng.pick(['POST', 'PATCH', 'PUT']);
      path = rng.pick([
        '/api/workflow/create',
        '/api/workflow/edit/x',
        '/api/account',
        '/api/scraper',
      ]);
      body = Buffer.from(rng.pick(BAD_BODIES));
      headers.push(
        `Content-Type: ${rng.pick(['application/json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'])}`,
      );
      headers.push(`Content-Length: ${body.length}`);
      break;
    }
    case 1:
      method = rng.pick([
        'FOO',
        'get',
        'PROPFIND',
        'TRACE',
        'CONNECT',
        'DELETE',
        'OPTIONS',
        'HEAD',
        'G\u00c9T',
        'PATCH',
        'BREW',
      ]);
      break;
    case 2:
      path = oddPath(rng);
      break;
    case 3:
      headers.push(`X-Big: ${'b'.repeat(16 * 1024 + rng.int(40_000))}`);
      break;
    default:
      path = `${rng.pick(ROUTES)}?${rng.pick(ODD_QUERIES)}&${rng.pick(ODD_QUERIES)}`;
  }
  if (withKey) path += (path.includes('?') ? '&' : '?') + withKey;
  if (method === 'CONNECT') path = '127.0.0.1:1';
  return { head: `${method} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, body, method };
}

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

function send(head: string, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while we still write a huge header; what it answered counts.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
      reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const headers = new Map<string, string>();
      for (const line of text.slice(0, split).split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      let rest = text.slice(split + 4);
      if (headers.get('transfer-encoding') === 'chunked') rest = unchunk(rest);
      resolve({ status, headers, body: rest });
    });
    socket.write(Buffer.concat([Buffer.from(head, 'utf8'), body]));
  });
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

describe('2,000 random bad requests', () => {
  it('never answer 500 and always answer errors as JSON {"error"}', async () => {
    const seed = Number(process.env.BAD_REQUESTS_SEED ?? Date.now() % 100_000);
    const rng = seededRandom(seed);
    const requests = Array.from({ length: 2000 }, () => rawRequest(rng, service.apiKey));
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let index = 0;
    const worker = async () => {
      while (index < requests.length) {
        const request = requests[index++] as (typeof requests)[number];
        const answer = await send(request.head, request.body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const line = request.head.slice(0, 120).split('\r\n')[0];
        if (answer.status === 0 || answer.status >= 500)
          problems.push(`${answer.status} for ${line}`);
        if (/root:x:0/.test(answer.body)) problems.push(`file leaked for ${line}`);
        if (answer.body.includes(service.apiKey)) problems.push(`key echoed for ${line}`);
        if (answer.status < 400 || request.method === 'HEAD') continue;
        if (/<html|at \w+ \(/i.test(answer.body)) problems.push(`HTML or stack for ${line}`);
        if (!/^application\/json/.test(answer.headers.get('content-type') ?? '')) {
          problems.push(`${answer.status} not JSON for ${line}`);
          continue;
        }
        try {
          const parsed = JSON.parse(answer.body) as { error?: unknown };
          if (typeof parsed.error !== 'string' || Object.keys(parsed).length !== 1) {
            problems.push(`${answer.status} body ${answer.body.slice(0, 80)} for ${line}`);
          }
        } catch {
          problems.push(`${answer.status} unparsable ${answer.body.slice(0, 80)} for ${line}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.deepEqual(problems.slice(0, 20), [], `seed ${seed}`);
    // The mix really exercised the error paths.
    const errors = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    assert.ok(errors > 1500, `only ${errors} errors: ${JSON.stringify([...statuses])}`);
    assert.ok(statuses.has(431), 'headers over 16 KB get 431');
    // The service still answers normally afterwards.
    const health = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(health.status, 200);
  });
});
