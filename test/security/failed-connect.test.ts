/**
 * Issue 24, point 1: a connection that fails at once must fail its page, never the process.
 * With the address guard on, every render connects through the guard proxy; a target or a
 * sub-resource whose connect fails synchronously (ENETUNREACH here: 255.255.255.255 has no
 * route on any host) once raised an 'error' event before its listener was attached, and
 * the service exited. The test's address policy takes 127.0.0.1 (the fixture site) and
 * 255.255.255.255 for public, so the guard lets the connect happen; nothing leaves the host.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';
import { type UncaughtWatch, watchUncaught } from '../helpers/uncaught.js';

/** Fails locally at once (ENETUNREACH): the kernel has no route for the broadcast address. */
const UNREACHABLE = 'http://255.255.255.255/';

let site: FixtureSite;
let service: TestService;
let uncaught: UncaughtWatch;
/** Answers every request with a reason phrase holding a control character (Node's parser takes it). */
let oddStatus: Server;

before(async () => {
  site = await startFixtureSite();
  site.html(
    '/broken-image',
    '<h1>Still here</h1><img src="http://255.255.255.255/x.png"><img src="https://255.255.255.255/y.png"><script src="http://255.255.255.255/x.js"></script>',
  );
  oddStatus = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end('HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nhi'));
  });
  await new Promise<void>((resolve) => oddStatus.listen(0, '127.0.0.1', resolve));
  service = await startService({
    allowPrivateNetworks: false,
    addressPolicy: (ip) => ip === '127.0.0.1' || ip === '255.255.255.255',
  });
});

beforeEach(() => {
  uncaught = watchUncaught();
});

afterEach(() => {
  uncaught.stop();
});

after(async () => {
  oddStatus?.close();
  await service?.close();
  await site?.close();
});

async function render(url: string) {
  const query = new URLSearchParams({ api_key: service.apiKey, render: 'true', url });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  return { status: res.status, text: await res.text() };
}

/** The service raised nothing unheard and answers a good page after the bad one. */
async function servesTheNextRequest() {
  assert.deepEqual(uncaught.seen(), [], 'the service raised an error nobody listened to');
  const next = await render(site.url('/page'));
  assert.equal(next.status, 200, next.text);
  assert.match(next.text, /Hello fixture/);
}

test('a render of a target whose connect fails at once answers 502 and the service lives on', async () => {
  const answer = await render(UNREACHABLE);
  assert.equal(answer.status, 502, answer.text);
  assert.deepEqual(JSON.parse(answer.text), {
    error: 'Failed to fetch the page: address unreachable',
  });
  await servesTheNextRequest();
});

test('an https target (a CONNECT tunnel) whose connect fails at once answers 502 too', async () => {
  const answer = await render('https://255.255.255.255/');
  assert.equal(answer.status, 502, answer.text);
  assert.deepEqual(JSON.parse(answer.text), {
    error: 'Failed to fetch the page: address unreachable',
  });
  await servesTheNextRequest();
});

test('a page whose image and script fail to connect at once still answers 200', async () => {
  const answer = await render(site.url('/broken-image'));
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.text, /Still here/);
  await servesTheNextRequest();
});

test('a browser scrape through /v2/scrape of such a target fails cleanly', async () => {
  const res = await fetch(`${service.baseUrl}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: UNREACHABLE, formats: ['html'], mobile: true }),
  });
  const body = (await res.json()) as { success: boolean; code?: string };
  // Firecrawl's answer for a site that could not be scraped.
  assert.equal(res.status, 500, JSON.stringify(body));
  assert.equal(body.success, false);
  assert.equal(body.code, 'SCRAPE_SITE_ERROR');
  await servesTheNextRequest();
});

test('a fetch (render=false) of such a target answers 502 too', async () => {
  const query = new URLSearchParams({ api_key: service.apiKey, url: UNREACHABLE });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  assert.equal(res.status, 502, await res.text());
  await servesTheNextRequest();
});

test('a target whose status line the guard cannot repeat fails its page, not the process', async () => {
  const { port } = oddStatus.address() as { port: number };
  site.html('/odd-image', `<h1>Odd image</h1><img src="http://127.0.0.1:${port}/x.png">`);
  const page = await render(site.url('/odd-image'));
  assert.equal(page.status, 200, page.text);
  assert.match(page.text, /Odd image/);
  const target = await render(`http://127.0.0.1:${port}/`);
  assert.equal(target.status, 502, target.text);
  await servesTheNextRequest();
});
