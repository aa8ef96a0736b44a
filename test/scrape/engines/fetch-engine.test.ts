import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { DEFAULTS } from '../../../src/config.js';
import { type AppError, isAppError } from '../../../src/errors.js';
import { createFetchEngine, type FetchEngine } from '../../../src/scrape/engines/fetch-engine.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import {
  CP1252_HIGH_TEXT,
  type FixtureSite,
  PLAIN_PAGE,
  SHIFT_JIS_TEXT,
  startFixtureSite,
} from '../../helpers/fixture-site.js';
import { until } from '../../helpers/until.js';
import { fetchPlan } from './fetch-plan.js';

const { maxBodyBytes } = DEFAULTS;

let site: FixtureSite;
let engine: FetchEngine;
before(async () => {
  site = await startFixtureSite();
  engine = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1024 * 1024 }),
  });
});
after(async () => {
  await engine.close();
  await site.close();
});

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

test('a plain page comes back with its status, final URL and UTF-8 text', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/page')));
  assert.equal(page.status, 200);
  assert.equal(page.finalUrl, site.url('/page'));
  assert.equal(page.html, PLAIN_PAGE);
  assert.equal(page.contentType, 'text/html; charset=utf-8');
});

test('the request looks like desktop Chrome', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/echo')));
  const { headers } = JSON.parse(page.html) as { headers: Record<string, string> };
  assert.match(headers['user-agent'] ?? '', /Chrome\/\d+.*Safari/);
  assert.match(headers.accept ?? '', /^text\/html/);
  assert.equal(headers['accept-language'], 'en-US,en;q=0.9');
  assert.equal(headers['accept-encoding'], 'gzip, deflate, br');
});

test('an error status of the target is still a snapshot', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/status/404')));
  assert.equal(page.status, 404);
  assert.match(page.html, /Status 404/);
});

test('JSON and plain text come back as text', async () => {
  assert.equal((await engine.fetch(fetchPlan(site.url('/json')))).html, '{"ok":true,"n":1}');
  assert.equal((await engine.fetch(fetchPlan(site.url('/text')))).html, 'just text\n');
});

test('a redirect chain is followed to the end, each hop once', async () => {
  site.resetCounters();
  const page = await engine.fetch(fetchPlan(site.url('/redirect/chain?n=10')));
  assert.equal(page.finalUrl, site.url('/page'));
  assert.equal(page.html, PLAIN_PAGE);
  assert.equal(site.hits('/redirect/chain'), 10);
  assert.equal(site.hits('/page'), 1);
});

test('more than 10 redirects fail with a 502', async () => {
  const error = await failure(engine.fetch(fetchPlan(site.url('/redirect/chain?n=11&status=301'))));
  assert.equal(error.status, 502);
  assert.equal(error.message, 'Failed to fetch the page: too many redirects (more than 10)');
});

test('a redirect loop is detected without using up the limit', async () => {
  site.resetCounters();
  const error = await failure(engine.fetch(fetchPlan(site.url('/redirect/loop'))));
  assert.equal(error.code, 'FETCH_FAILED');
  assert.match(error.message, /redirect loop at .*\/redirect\/loop$/);
  assert.equal(site.hits('/redirect/loop'), 1);
  assert.equal(site.hits('/redirect/loop-b'), 1);
});

test('a cookie set on a redirect is replayed so set-cookie-and-bounce pages load', async () => {
  site.route('/bounce', (req, res) => {
    if (req.headers.cookie === 'seen=1') return void res.end('<p>welcome back</p>');
    res.writeHead(302, { location: '/bounce', 'set-cookie': 'seen=1; Path=/; HttpOnly' });
    res.end();
  });
  const page = await engine.fetch(fetchPlan(site.url('/bounce')));
  assert.equal(page.html, '<p>welcome back</p>');
});

test('a 303 is followed with a GET', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/redirect/see-other')));
  assert.equal(page.finalUrl, site.url('/echo'));
  assert.equal((JSON.parse(page.html) as { method: string }).method, 'GET');
});

test('a redirect to a non-HTTP scheme fails', async () => {
  const error = await failure(
    engine.fetch(fetchPlan(site.url('/redirect/to?url=file:///etc/passwd'))),
  );
  assert.equal(error.message, 'Failed to fetch the page: redirect to unsupported URL scheme file:');
});

for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw']) {
  test(`a ${path.slice(1)} body is decompressed`, async () => {
    assert.equal((await engine.fetch(fetchPlan(site.url(path)))).html, PLAIN_PAGE);
  });
}

test('a body over the limit fails with a 502 naming the limit', async () => {
  const error = await failure(engine.fetch(fetchPlan(site.url('/huge?mb=3'))));
  assert.equal(error.status, 502);
  assert.equal(
    error.message,
    `Failed to fetch the page: response body exceeds ${1024 * 1024} bytes`,
  );
});

test('a compressed body that inflates past the limit fails the same way', async () => {
  const { gzipSync } = await import('node:zlib');
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 'a'));
  site.route('/bomb', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(bomb);
  });
  assert.ok(bomb.length < 64 * 1024);
  const error = await failure(engine.fetch(fetchPlan(site.url('/bomb'))));
  assert.match(error.message, /response body exceeds/);
});

test('a 100 KB page is read whole', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/big')));
  assert.ok(page.html.length > 100_000);
  assert.ok(page.html.endsWith('</body></html>'));
});

test('a target slower than the budget is a 504 naming the budget', async () => {
  const error = await failure(
    engine.fetch(fetchPlan(site.url('/slow?ms=5000'), { timeoutMs: 1000 })),
  );
  assert.equal(error.code, 'TIMED_OUT');
  assert.equal(error.status, 504);
  assert.equal(error.message, 'Timed out after 1000 ms');
});

test('a body that stalls mid-way times out too', async () => {
  const error = await failure(
    engine.fetch(fetchPlan(site.url('/slow-body?ms=5000'), { timeoutMs: 1000 })),
  );
  assert.equal(error.code, 'TIMED_OUT');
});

// The target and the budget both outlast the test's own timeout: only the abort can end it.
test('aborting the plan signal stops the fetch', { timeout: 60_000 }, async () => {
  const controller = new AbortController();
  const before = site.hits('/slow');
  const pending = failure(
    engine.fetch(
      fetchPlan(site.url('/slow?ms=600000'), { timeoutMs: 600_000, signal: controller.signal }),
    ),
  );
  await until(() => site.hits('/slow') > before, 30_000);
  controller.abort();
  const error = await pending;
  assert.equal(error.code, 'TIMED_OUT');
});

const charsetCases: Array<[string, string]> = [
  ['/charset/header-1252', CP1252_HIGH_TEXT],
  ['/charset/latin1-label', CP1252_HIGH_TEXT],
  ['/charset/undeclared-1252', CP1252_HIGH_TEXT],
  ['/charset/meta-1252', CP1252_HIGH_TEXT],
  ['/charset/shift-jis-header', SHIFT_JIS_TEXT],
  ['/charset/shift-jis-meta', SHIFT_JIS_TEXT],
  ['/charset/utf8-bom', 'naïve café €'],
  ['/charset/utf16le-bom', 'naïve café €'],
];
for (const [path, expected] of charsetCases) {
  test(`${path} decodes to UTF-8 text`, async () => {
    const page = await engine.fetch(fetchPlan(site.url(path)));
    assert.ok(page.html.includes(expected), page.html);
  });
}

test("a UTF-8 page carries its own bytes for the answer, only when they are its text's", async () => {
  site.route('/charset/invalid-utf8', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(Buffer.concat([Buffer.from('<p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]));
  });
  const utf8 = await engine.fetch(fetchPlan(site.url('/big')));
  assert.ok(utf8.htmlBytes, 'a UTF-8 page');
  assert.ok(utf8.htmlBytes.equals(Buffer.from(utf8.html, 'utf8')));
  const gzipped = await engine.fetch(fetchPlan(site.url('/gzip')));
  assert.ok(gzipped.htmlBytes?.equals(Buffer.from(PLAIN_PAGE, 'utf8')), 'decompressed');
  for (const path of ['/charset/header-1252', '/charset/utf8-bom', '/charset/invalid-utf8']) {
    const page = await engine.fetch(fetchPlan(site.url(path)));
    assert.equal(page.htmlBytes, undefined, path);
  }
});

test('windows-1252 0x80 is € and 0x9F is Ÿ', async () => {
  const page = await engine.fetch(fetchPlan(site.url('/charset/header-1252')));
  const text = /<p>(.*)<\/p>/.exec(page.html)?.[1] ?? '';
  assert.equal(text[0], '€');
  assert.equal(text.at(-1), 'Ÿ');
});

test('repeated scrapes of one host reuse a keep-alive connection', async () => {
  const fresh = await startFixtureSite();
  const reuse = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes }),
  });
  try {
    for (let i = 0; i < 5; i += 1) {
      await reuse.fetch(fetchPlan(fresh.url('/page')));
      // Separate scrapes are separate requests: at least one event-loop turn apart.
      await setImmediate();
    }
    await reuse.fetch(fetchPlan(fresh.url('/redirect/chain?n=3')));
    assert.equal(fresh.totalHits(), 9);
    assert.equal(fresh.connections(), 1);
  } finally {
    await reuse.close();
    await fresh.close();
  }
});

test('a refused connection is a 502 naming the host', async () => {
  const closed = await startFixtureSite();
  const url = closed.url('/page');
  await closed.close();
  const error = await failure(engine.fetch(fetchPlan(url)));
  assert.equal(error.message, 'Failed to fetch the page: connection refused by 127.0.0.1');
});

test('a burst of scrapes of one site opens no more than connectionsPerOrigin sockets', async () => {
  const fresh = await startFixtureSite();
  const capped = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes, connectionsPerOrigin: 4 }),
  });
  try {
    const pages = await Promise.all(
      Array.from({ length: 40 }, () => capped.fetch(fetchPlan(fresh.url('/page')))),
    );
    assert.ok(pages.every((p) => p.html === PLAIN_PAGE));
    assert.equal(fresh.hits('/page'), 40);
    assert.equal(fresh.connections(), 4);
  } finally {
    await capped.close();
    await fresh.close();
  }
});
