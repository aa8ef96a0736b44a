/**
 * Issue 24, points 1 and 6: what a hostile page or network does to a render, with the
 * address guard on. The test's address policy takes 127.0.0.1 (the fixture sites) and
 * 255.255.255.255 for public: the guard lets a connect to the latter happen, and it fails
 * locally at once (ENETUNREACH, no route for the broadcast address), so nothing leaves the
 * host. 127.0.0.2 plays a private address the guard refuses.
 *
 * Point 1: a connect failing at once, in the guard proxy, raised an 'error' event before
 * its listener was attached and ended the service; so did a target's reason phrase Node
 * will not repeat, and a client resetting a CONNECT to the API. Each now fails its own
 * request only, and the service serves the next.
 *
 * Point 6: a page whose meta refresh or script moves it after the load to a refused or
 * failing address landed on `chrome-error://chromewebdata/` and was answered 200 for 15
 * credits. It is a failed scrape: 502, the balance untouched, a failed run record.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type Server } from 'node:net';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { balanceOf, startService, type TestService } from '../helpers/service.js';
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
  const moving = (to: string) =>
    `<p>moving</p><script>location.href = ${JSON.stringify(to)}</script>`;
  site.html('/meta', '<meta http-equiv="refresh" content="0;url=http://127.0.0.2/"><p>moving</p>');
  site.html('/script', moving('http://127.0.0.2/x'));
  site.html('/unreachable', moving('http://255.255.255.255/x'));
  site.html('/blank', moving('about:blank'));
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

const balance = () => balanceOf(service);

async function lastRecord(url: string) {
  return service.running.store.db
    .selectFrom('requests')
    .select(['status', 'status_code', 'credits', 'error'])
    .where('account_id', '=', service.accountId)
    .where('url', '=', url)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Sends CONNECT, reads the answer's status line, then resets the connection. */
function connectThenReset(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );
    socket.on('error', reject);
    socket.once('data', (data) => {
      socket.resetAndDestroy();
      resolve(String(data).split('\r\n')[0] ?? '');
    });
  });
}

describe('a connect that fails at once fails its page, never the process', () => {
  it('a render of a target whose connect fails at once answers 502 and the service lives on', async () => {
    const answer = await render(UNREACHABLE);
    assert.equal(answer.status, 502, answer.text);
    assert.deepEqual(JSON.parse(answer.text), {
      error: 'Failed to fetch the page: address unreachable',
    });
    await servesTheNextRequest();
  });

  it('an https target (a CONNECT tunnel) whose connect fails at once answers 502 too', async () => {
    const answer = await render('https://255.255.255.255/');
    assert.equal(answer.status, 502, answer.text);
    assert.deepEqual(JSON.parse(answer.text), {
      error: 'Failed to fetch the page: address unreachable',
    });
    await servesTheNextRequest();
  });

  it('a page whose image and script fail to connect at once still answers 200', async () => {
    const answer = await render(site.url('/broken-image'));
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, /Still here/);
    await servesTheNextRequest();
  });

  it('a browser scrape through /v2/scrape of such a target fails cleanly', async () => {
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

  it('a fetch (render=false) of such a target answers 502 too', async () => {
    const query = new URLSearchParams({ api_key: service.apiKey, url: UNREACHABLE });
    const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
    assert.equal(res.status, 502, await res.text());
    await servesTheNextRequest();
  });

  it('a map of such a target (robots.txt, sitemaps, the page) fails cleanly', async () => {
    const res = await fetch(`${service.baseUrl}/v2/map`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: UNREACHABLE }),
    });
    const body = (await res.json()) as { success: boolean; code?: string };
    assert.equal(res.status, 500, JSON.stringify(body));
    assert.equal(body.code, 'SCRAPE_SITE_ERROR');
    await servesTheNextRequest();
  });

  it('a target whose status line the guard cannot repeat fails its page, not the process', async () => {
    const { port } = oddStatus.address() as { port: number };
    site.html('/odd-image', `<h1>Odd image</h1><img src="http://127.0.0.1:${port}/x.png">`);
    const page = await render(site.url('/odd-image'));
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /Odd image/);
    const target = await render(`http://127.0.0.1:${port}/`);
    assert.equal(target.status, 502, target.text);
    await servesTheNextRequest();
  });
});

describe('a socket Node hands over has a listener before anything can fail on it', () => {
  // Node gives a CONNECT's socket to the server's 'connect' listener with no 'error' listener.
  it('a CONNECT whose client resets after the 405 leaves the service serving', async () => {
    const port = Number(new URL(service.baseUrl).port);
    for (let i = 0; i < 3; i += 1) {
      assert.equal(await connectThenReset(port), 'HTTP/1.1 405 Method Not Allowed');
    }
    // The reset reaches the service's socket after the answer: give it a moment to be read.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await servesTheNextRequest();
  });
});

describe('a render that ends off the web is a failed scrape', () => {
  const cases: [string, string, string][] = [
    [
      'a meta refresh to a refused address',
      '/meta',
      'Failed to fetch the page: the page moved to 127.0.0.2, a non-public address',
    ],
    [
      'a script move to a refused address',
      '/script',
      'Failed to fetch the page: the page moved to 127.0.0.2, a non-public address',
    ],
    [
      'a script move to an address that fails at once',
      '/unreachable',
      'Failed to fetch the page: address unreachable',
    ],
    [
      'a script move to about:blank',
      '/blank',
      'Failed to fetch the page: the page moved to about:blank',
    ],
  ];
  for (const [name, path, error] of cases) {
    it(`${name}: 502, not charged, recorded as failed`, async () => {
      const url = site.url(path);
      const credits = await balance();
      const query = new URLSearchParams({ api_key: service.apiKey, render: 'true', url });
      const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
      const text = await res.text();
      assert.equal(res.status, 502, text);
      assert.deepEqual(JSON.parse(text), { error });
      assert.equal(await balance(), credits);
      assert.deepEqual(await lastRecord(url), {
        status: 'failed',
        status_code: 502,
        credits: 0,
        error,
      });
    });
  }
});
