/**
 * Contract 1.6: an API key never reaches a log line. The real service logs at trace level
 * into a captured stream while requests carry the key in the query and in the header,
 * successes and failures alike; then the whole log is searched for the key.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let site: FixtureSite;
const lines: string[] = [];

before(async () => {
  site = await startFixtureSite();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  service = await startService({ logStream, env: { LOG_LEVEL: 'trace' } });
});
after(async () => {
  await service.close();
  await site.close();
});

describe('API keys in logs', () => {
  it('appear in no log line, whatever the request and its outcome', async () => {
    const key = service.apiKey;
    const base = service.baseUrl;
    const q = `api_key=${key}`;
    const requests: [string, RequestInit?][] = [
      [`${base}/api/account?${q}`],
      [`${base}/api/account`, { headers: { 'X-API-Key': key } }],
      [`${base}/api/account?API_KEY=${key}`],
      [`${base}/api/account?${q}`, { headers: { 'X-API-Key': `${key}x` } }],
      [`${base}/api/account?foo=1&${q}&bar=2`],
      [`${base}/api/scraper?${q}&url=${encodeURIComponent(site.url('/page'))}`],
      [
        `${base}/api/scraper?url=${encodeURIComponent(site.url('/status/500'))}`,
        { headers: { 'X-API-Key': key } },
      ],
      [`${base}/api/scraper?${q}&url=http://127.0.0.1:1/`],
      [`${base}/api/scraper?${q}&url=${encodeURIComponent(site.url('/page'))}&nope=1`],
      [`${base}/api/scraper?${q}&render=maybe`],
      [`${base}/api/scraper?${q}&config=${encodeURIComponent(`{"api_key":"${key}"}`)}`],
      [
        `${base}/api/scraper?${q}&url=${encodeURIComponent(site.url('/slow?ms=3000'))}&timeout=1000`,
      ],
      [`${base}/no/such/route?${q}`],
      [`${base}/api/account?${q}`, { method: 'DELETE' }],
      [`${base}/api/account?${q}&x=%zz`],
      [
        `${base}/api/account?${q}`,
        { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json' } },
      ],
      [`${base}/healthz?${q}`],
    ];
    const statuses: number[] = [];
    for (const [url, init] of requests) {
      const response = await fetch(url, init);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // The set covers successes and several kinds of failure.
    assert.ok(statuses.includes(200));
    assert.ok(statuses.includes(403));
    assert.ok(statuses.includes(400));
    assert.ok(statuses.includes(404));
    assert.ok(statuses.includes(502));
    assert.ok(statuses.includes(504));
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(lines.length >= requests.length, `expected a line per request, got ${lines.length}`);
    const log = lines.join('');
    assert.ok(log.includes('[REDACTED]'), 'the query key is replaced by a marker');
    const leaking = lines.filter((line) => line.includes(key) || line.includes(key.slice(4, 24)));
    assert.deepEqual(leaking, []);
  });
});
