/**
 * Per-scrape identity: a phone (`mobile`), extra headers, languages and a skipped
 * certificate check, each seen by the target, and none of them left behind on the warm
 * page or context the next scrape of the same account reuses.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import type { ScrapeOptions } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { startTlsSite, type TlsSite } from '../../../helpers/tls-site.js';
import { pngSize, renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let tls: TlsSite | null;
const engine = createBrowserEngine({ allowPrivateNetworks: true, pageReuseLimit: 50 });
/** Request headers the site saw, per path, last first. */
const seen = new Map<string, IncomingHttpHeaders[]>();

/** What the page sees of its device and languages, as JSON in `#probe`. */
const PROBE = `<!doctype html><html><head>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<pre id="probe"></pre><img src="/pixel">
<script>
document.getElementById('probe').textContent = JSON.stringify({
  width: innerWidth,
  ratio: devicePixelRatio,
  touch: 'ontouchstart' in window,
  maxTouchPoints: navigator.maxTouchPoints,
  coarse: matchMedia('(pointer: coarse)').matches,
  userAgent: navigator.userAgent,
  language: navigator.language,
  languages: navigator.languages,
});
</script></body></html>`;

before(async () => {
  site = await startFixtureSite();
  for (const path of ['/probe', '/pixel']) {
    site.route(path, (req, res) => {
      seen.set(path, [req.headers, ...(seen.get(path) ?? [])]);
      if (path === '/pixel') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PROBE);
    });
  }
  tls = await startTlsSite((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p id="secret">over TLS</p>');
  });
});

after(async () => {
  await engine.close();
  await site.close();
  await tls?.close();
});

interface Probe {
  width: number;
  ratio: number;
  touch: boolean;
  maxTouchPoints: number;
  coarse: boolean;
  userAgent: string;
  language: string;
  languages: string[];
}

async function probe(options: Partial<ScrapeOptions> = {}) {
  const snapshot = await engine.render(renderPlan(site.url('/probe'), options));
  const json = /<pre id="probe">(.*?)<\/pre>/s.exec(snapshot.html)?.[1] ?? '';
  const page = JSON.parse(json.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as Probe;
  return { page, snapshot, document: seen.get('/probe')![0]!, pixel: seen.get('/pixel')![0]! };
}

describe('mobile', () => {
  test('the page sees a narrow touch screen at 3x and a mobile Chrome user agent', async () => {
    const { page, document } = await probe({ mobile: true });
    assert.deepEqual(
      { width: page.width, ratio: page.ratio, touch: page.touch, coarse: page.coarse },
      { width: 390, ratio: 3, touch: true, coarse: true },
    );
    assert.ok(page.maxTouchPoints > 0);
    assert.match(page.userAgent, /Android .* Chrome\/\d+\.0\.0\.0 Mobile Safari/);
    assert.equal(document['user-agent'], page.userAgent);
    assert.equal(document['sec-ch-ua-mobile'], '?1');
  });

  test('a mobile screenshot is the phone window at 3x', async () => {
    const { snapshot } = await probe({ mobile: true, screenshot: true });
    assert.deepEqual(pngSize(snapshot.screenshot!), { width: 390 * 3, height: 844 * 3 });
  });

  test('a desktop scrape after a mobile one gets a desktop context', async () => {
    await probe({ mobile: true });
    const { page, document } = await probe();
    assert.equal(page.width, 800);
    assert.equal(page.touch, false);
    assert.equal(page.ratio, 1);
    assert.doesNotMatch(page.userAgent, /Mobile/);
    assert.notEqual(document['sec-ch-ua-mobile'], '?1');
  });
});

describe('headers and languages', () => {
  test('extra headers go on the document and its sub-requests', async () => {
    const { document, pixel } = await probe({ headers: { 'X-Pagegrab-Test': 'yes' } });
    assert.equal(document['x-pagegrab-test'], 'yes');
    assert.equal(pixel['x-pagegrab-test'], 'yes');
  });

  test('Host and the connection headers are not the caller to set', async () => {
    const { document } = await probe({
      headers: { Host: 'elsewhere.example', Connection: 'close', 'X-Kept': '1' },
    });
    assert.equal(document.host, `127.0.0.1:${site.port}`);
    assert.notEqual(document.connection, 'close');
    assert.equal(document['x-kept'], '1');
  });

  test('languages set Accept-Language and navigator.language', async () => {
    const { page, document } = await probe({ languages: ['fr-CH', 'fr', 'en'] });
    assert.match(document['accept-language']!, /^fr-CH,fr;q=0\.9,en;q=0\.8$/);
    assert.equal(page.language, 'fr-CH');
    assert.deepEqual(page.languages, ['fr-CH', 'fr', 'en']);
  });

  test('languages keep the phone when mobile', async () => {
    const { page, document } = await probe({ mobile: true, languages: ['de'] });
    assert.equal(page.language, 'de');
    assert.match(page.userAgent, /Mobile/);
    assert.equal(document['sec-ch-ua-mobile'], '?1');
  });

  test('the next scrape on the reused page sends neither', async () => {
    const before = engine.status().contextsCreated;
    await probe({ headers: { 'X-Leak': 'yes' }, languages: ['ja'] });
    const { page, document, pixel } = await probe();
    assert.equal(engine.status().contextsCreated, before, 'the same warm page served both');
    assert.equal(document['x-leak'], undefined);
    assert.equal(pixel['x-leak'], undefined);
    assert.match(document['accept-language']!, /^en-US/);
    assert.equal(page.language, 'en-US');
  });
});

describe('skipTlsVerification', () => {
  test('a self-signed certificate fails without it, loads with it, and fails again after', async (t) => {
    if (!tls) return t.skip('openssl is not installed');
    const url = `${tls.origin}/`;
    await assert.rejects(engine.render(renderPlan(url)), {
      code: 'FETCH_FAILED',
      message: /TLS certificate error \(ERR_CERT_/,
    });
    const snapshot = await engine.render(renderPlan(url, { skipTlsVerification: true }));
    assert.match(snapshot.html, /<p id="secret">over TLS<\/p>/);
    await assert.rejects(engine.render(renderPlan(url)), { code: 'FETCH_FAILED' });
  });
});
