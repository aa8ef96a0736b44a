/**
 * GET /api/scraper (render=false) answering: headers, content types, charsets decoded end to
 * end, Markdown with absolute links, static blockers, a proxied fetch, and credits under
 * concurrency.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CP1252_HIGH_TEXT,
  type FixtureSite,
  SHIFT_JIS_TEXT,
  startFixtureSite,
} from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';
import { startService, type TestService } from '../../helpers/service.js';

let site: FixtureSite;
let service: TestService;

const BLOCKED_PAGE = readFileSync(
  join(import.meta.dirname, '..', '..', 'helpers', 'fixtures', 'blocked-page.html'),
  'utf8',
);

before(async () => {
  site = await startFixtureSite();
  site.html('/blocked', BLOCKED_PAGE);
  service = await startService({ credits: 1000 });
});
after(async () => {
  await service.close();
  await site.close();
});

async function scrape(query: string, base = service.baseUrl, key = service.apiKey) {
  const response = await fetch(`${base}/api/scraper?api_key=${key}&${query}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const url = (path: string) => `url=${encodeURIComponent(site.url(path))}`;

describe('scraper answers', () => {
  it('returns the page as UTF-8 HTML with the credit and target headers', async () => {
    const answer = await scrape(url('/page'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(answer.text, /<title>Fixture page<\/title>/);
    assert.equal(answer.headers.get('x-credits-used'), '1');
    const remaining = Number(answer.headers.get('x-credits-remaining'));
    assert.ok(remaining < 1000);
    assert.equal(answer.headers.get('x-target-status'), '200');
    assert.equal(answer.headers.get('x-target-url'), site.url('/page'));
    assert.ok(answer.headers.get('x-request-id'));
  });

  it('answers 200 with X-Target-Status 404 for a 404 target, and charges it', async () => {
    const before = await scrape(url('/page'));
    const answer = await scrape(url('/status/404'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-target-status'), '404');
    assert.equal(answer.headers.get('x-credits-used'), '1');
    assert.equal(
      Number(answer.headers.get('x-credits-remaining')),
      Number(before.headers.get('x-credits-remaining')) - 1,
    );
  });

  it('reports the final URL after redirects in X-Target-Url', async () => {
    const answer = await scrape(url('/redirect/chain?n=3'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-target-url'), site.url('/page'));
  });

  const charsets: [string, string][] = [
    ['/charset/header-1252', CP1252_HIGH_TEXT],
    ['/charset/undeclared-1252', CP1252_HIGH_TEXT],
    ['/charset/meta-1252', CP1252_HIGH_TEXT],
    ['/charset/shift-jis-header', SHIFT_JIS_TEXT],
    ['/charset/shift-jis-meta', SHIFT_JIS_TEXT],
    ['/charset/utf16le-bom', 'naïve café €'],
  ];
  for (const [path, text] of charsets) {
    it(`decodes ${path} to UTF-8`, async () => {
      const answer = await scrape(url(path));
      assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.ok(answer.text.includes(text), answer.text.slice(0, 200));
    });
  }

  it('returns Markdown with absolute links', async () => {
    const answer = await scrape(`${url('/page')}&markdown=true`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(answer.text, /Hello fixture/);
    assert.ok(answer.text.includes(`](${site.url('/page')})`), answer.text);
    assert.doesNotMatch(answer.text, /\]\(\/[^)]*\)/, 'no relative link');
  });
});

describe('static blockers (render=false)', () => {
  it('keep everything without block flags', async () => {
    const answer = await scrape(url('/blocked'));
    assert.match(answer.text, /securepubads\.g\.doubleclick\.net/);
    assert.match(answer.text, /onetrust-banner-sdk/);
    assert.match(answer.text, /widget\.intercom\.io/);
  });

  it('block_ads removes the ad script and keeps the article', async () => {
    const answer = await scrape(`${url('/blocked')}&block_ads=true`);
    assert.doesNotMatch(answer.text, /securepubads\.g\.doubleclick\.net/);
    assert.match(answer.text, /id="keep-me"/);
    assert.match(answer.text, /onetrust-banner-sdk/);
  });

  it('block_cookie_banners removes the OneTrust banner', async () => {
    const answer = await scrape(`${url('/blocked')}&block_cookie_banners=true`);
    assert.doesNotMatch(answer.text, /onetrust-banner-sdk/);
    assert.match(answer.text, /id="keep-me"/);
  });

  it('block_chat_widgets removes the Intercom widget', async () => {
    const answer = await scrape(`${url('/blocked')}&block_chat_widgets=true`);
    assert.doesNotMatch(answer.text, /widget\.intercom\.io|intercom-container/);
    assert.match(answer.text, /id="keep-me"/);
  });
});

describe('proxied fetch', () => {
  let proxy: ForwardProxy;
  let proxied: TestService;

  before(async () => {
    proxy = await startForwardProxy({ auth: { username: 'u', password: 'p' } });
    const file = join(tmpdir(), `pagegrab-proxy-${process.pid}.json`);
    writeFileSync(file, JSON.stringify([{ url: proxy.url, type: 'datacenter' }]));
    proxied = await startService({ env: { PROXIES_FILE: file } });
  });
  after(async () => {
    await proxied.close();
    await proxy.close();
  });

  it('goes through the configured datacenter proxy', async () => {
    proxy.resetCounters();
    const answer = await scrape(url('/page'), proxied.baseUrl, proxied.apiKey);
    assert.equal(answer.status, 200);
    assert.match(answer.text, /Fixture page/);
    assert.ok(proxy.proxied() >= 1, 'the proxy forwarded the request');
    assert.equal(proxy.log()[0]?.port, site.port);
    assert.equal(proxy.log()[0]?.username, 'u');
  });
});

describe('credits under concurrency', () => {
  it('30 concurrent requests on 10 credits give exactly 10 successes and a balance of 0', async () => {
    const account = await service.addAccount(10, 30);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => scrape(url('/page'), service.baseUrl, account.apiKey)),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 10);
    assert.equal(statuses.filter((s) => s === 402).length, 20);
    const response = await fetch(`${service.baseUrl}/api/account?api_key=${account.apiKey}`);
    assert.equal(((await response.json()) as { credits: number }).credits, 0);
  });
});
