/**
 * render=false is the same Chrome as a render: Chrome's navigation headers in Chrome's
 * order (as this Chromium sends them over HTTP/1.1), client hints and Fetch Metadata only
 * to potentially trustworthy origins, the proxy country's languages unless the caller sets
 * some, the caller's headers in the place of Chrome's own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createFetchEngine } from '../../../src/scrape/engines/fetch-engine.js';
import { chromeBrands, secChUa } from '../../../src/scrape/engines/identity/chrome-identity.js';
import { createHttpClient } from '../../../src/scrape/net/http-client.js';
import type { ScrapeOptions } from '../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../helpers/forward-proxy.js';
import { fetchPlan } from './fetch-plan.js';

const VERSION = '156.0.8078.108';
let site: FixtureSite;
let proxy: ForwardProxy;
let raw: string[][] = [];
const engine = createFetchEngine({
  http: createHttpClient({
    allowPrivateNetworks: true,
    maxBodyBytes: 1 << 20,
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
  }),
  chromeVersion: VERSION,
});

before(async () => {
  site = await startFixtureSite();
  site.route('/', (req, res) => {
    raw.push(req.rawHeaders);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>hello</p>');
  });
  proxy = await startForwardProxy();
});

after(async () => {
  await engine.close();
  await proxy.close();
  await site.close();
});

async function headersFor(url: string, options: Partial<ScrapeOptions> = {}, viaProxy = false) {
  raw = [];
  const plan = fetchPlan(url, {
    proxies: viaProxy ? [{ url: proxy.url, type: 'residential', country: 'DE' }] : [],
  });
  await engine.fetch({ ...plan, options: { ...plan.options, ...options } });
  const pairs = raw[0]!;
  const names: string[] = [];
  const values: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    names.push(pairs[i]!.toLowerCase());
    values[pairs[i]!.toLowerCase()] = pairs[i + 1]!;
  }
  return { names, values };
}

test("a loopback (trustworthy) origin gets Chrome's full set, in Chrome's order", async () => {
  const { names, values } = await headersFor(site.url('/'));
  assert.deepEqual(names, [
    'host',
    'connection',
    'sec-ch-ua',
    'sec-ch-ua-mobile',
    'sec-ch-ua-platform',
    'upgrade-insecure-requests',
    'user-agent',
    'accept',
    'sec-fetch-site',
    'sec-fetch-mode',
    'sec-fetch-user',
    'sec-fetch-dest',
    'accept-encoding',
    'accept-language',
  ]);
  assert.equal(
    values['user-agent'],
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  );
  assert.equal(values['sec-ch-ua'], secChUa(chromeBrands(VERSION)));
  assert.equal(
    values['sec-ch-ua'],
    '"Not:A-Brand";v="8", "Chromium";v="156", "Google Chrome";v="156"',
  );
  assert.equal(values['sec-ch-ua-platform'], '"Windows"');
  assert.equal(values['accept-language'], 'en-US,en;q=0.9');
});

test('a plain-http public origin gets neither client hints nor Fetch Metadata, as from Chrome', async () => {
  const { names } = await headersFor(`http://shop.test:${site.port}/`);
  assert.deepEqual(names, [
    'host',
    'connection',
    'upgrade-insecure-requests',
    'user-agent',
    'accept',
    'accept-encoding',
    'accept-language',
  ]);
});

test("through a proxy in Germany: German languages; the caller's languages and headers win", async () => {
  const german = await headersFor(site.url('/'), { proxyCountry: 'DE' }, true);
  assert.equal(german.values['accept-language'], 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7');
  const asked = await headersFor(
    site.url('/'),
    {
      proxyCountry: 'DE',
      languages: ['fr-CH', 'fr'],
      headers: { 'User-Agent': 'Custom/1', 'X-Extra': '1' },
    },
    true,
  );
  assert.equal(asked.values['accept-language'], 'fr-CH,fr;q=0.9');
  assert.equal(asked.values['user-agent'], 'Custom/1');
  // The caller's User-Agent takes Chrome's place; a new header comes last.
  assert.ok(asked.names.indexOf('user-agent') < asked.names.indexOf('accept'));
  assert.equal(asked.names.at(-1), 'x-extra');
});

test('mobile: Chrome on Android with its own hints', async () => {
  const { values } = await headersFor(site.url('/'), { mobile: true });
  assert.match(values['user-agent'] ?? '', /Android 10; K\).*Chrome\/156\.0\.0\.0 Mobile Safari/);
  assert.equal(values['sec-ch-ua-mobile'], '?1');
  assert.equal(values['sec-ch-ua-platform'], '"Android"');
});
