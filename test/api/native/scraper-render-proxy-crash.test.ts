/**
 * render=true through GET /api/scraper with an operator proxy (PROXIES_FILE) and with
 * Chromium killed under a request. One service for the file, a real forward proxy on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';

let service: TestService;
let site: FixtureSite;
let proxy: ForwardProxy;
let dir: string;

async function scrape(params: Record<string, string>) {
  const query = new URLSearchParams({ api_key: service.apiKey, render: 'true', ...params });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    credits: Number(res.headers.get('x-credits-used')),
    text: await res.text(),
  };
}

async function browserPids(): Promise<number[]> {
  const res = await fetch(`${service.baseUrl}/readyz`);
  const body = (await res.json()) as { browser: { pids: number[] } };
  return body.browser.pids;
}

before(async () => {
  site = await startFixtureSite();
  // `load` waits for the image, which the fixture holds for 30 s: the render is in flight.
  site.html('/hang', '<p>hanging</p><img src="/slow?ms=30000">');
  proxy = await startForwardProxy({ auth: { username: 'resi', password: 's3cret' } });
  dir = mkdtempSync(join(tmpdir(), 'render-route-proxy-'));
  const proxiesFile = join(dir, 'proxies.json');
  writeFileSync(proxiesFile, JSON.stringify([{ url: proxy.url, type: 'residential' }]));
  service = await startService({ env: { PROXIES_FILE: proxiesFile } });
});

after(async () => {
  await service?.close();
  await proxy?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a residential render goes through the configured proxy and costs 15 x 10', async () => {
  proxy.resetCounters();
  const answer = await scrape({ url: site.url('/page'), proxy_type: 'residential' });
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.text, /Hello fixture/);
  assert.equal(answer.credits, 150);
  assert.ok(proxy.proxied() >= 1, 'nothing went through the proxy');
  // Chromium sends credentials only after the proxy's 407 challenge, so rejected() may be 1.
  assert.deepEqual(
    [...new Set(proxy.log().map((r) => `${r.username}@${r.hostname}:${r.port}`))],
    [`resi@127.0.0.1:${site.port}`],
  );
});

test('a datacenter render with no datacenter proxy configured goes direct', async () => {
  proxy.resetCounters();
  const answer = await scrape({ url: site.url('/page') });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.credits, 15);
  assert.equal(proxy.proxied(), 0);
});

test('killing Chromium fails its request with a JSON 5xx; the next succeeds on a new browser', async () => {
  assert.equal((await scrape({ url: site.url('/page') })).status, 200);
  const [pid] = await browserPids();
  assert.ok(pid, 'no browser pid in /readyz');
  site.resetCounters();
  const pending = scrape({ url: site.url('/hang'), timeout: '20000' });
  await until(() => site.hits('/slow') > 0, 10_000);
  process.kill(pid, 'SIGKILL');
  const failed = await pending;
  assert.ok(failed.status >= 500 && failed.status < 600, `status ${failed.status}`);
  assert.match(failed.type, /^application\/json/);
  assert.match(JSON.parse(failed.text).error, /^Browser failed: /);
  assert.equal(failed.credits, 0);
  const next = await scrape({ url: site.url('/page') });
  assert.equal(next.status, 200, next.text);
  const pids = await browserPids();
  assert.equal(pids.length, 1);
  assert.notEqual(pids[0], pid);
});
