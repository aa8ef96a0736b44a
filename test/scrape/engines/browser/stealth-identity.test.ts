/**
 * A render looks like a person's Chrome from inside the page: FingerprintJS's BotD (pinned
 * dev dependency, served by the fixture, its monitoring call off) says "not a bot", and
 * each point of the identity is read in the page itself: user agent and client hints of
 * Google Chrome of this Chromium's version, navigator.webdriver false, plugins, mimeTypes,
 * window.chrome, Notification agreeing with the permissions API, languages agreeing with
 * Accept-Language, the time zone and locale of the proxy's country, a screen larger than
 * the window, device memory a real Chrome reports, a GPU's WebGL strings, and no
 * automation globals. Without a proxy, and through one with a country.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import type { ProxyEndpoint, ScrapeOptions } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { type ForwardProxy, startForwardProxy } from '../../../helpers/forward-proxy.js';
import { renderPlan } from './plan-fixture.js';

const require = createRequire(import.meta.url);
const BOTD = readFileSync(
  require.resolve('@fingerprintjs/botd').replace(/botd\.cjs\.js$/, 'botd.esm.js'),
);

/** Collects what the page sees into `#probe` as JSON, then adds `#probe-done`. */
const PROBE = `<!doctype html><html><head><title>Probe</title></head><body>
<p>An ordinary page with some text on it, as a person would open it.</p>
<pre id="probe"></pre>
<script type="module">
import { load } from '/botd.js';
const out = {};
try {
  const agent = await load({ monitoring: false });
  out.botd = agent.detect();
} catch (error) {
  out.botd = { error: String(error) };
}
const gl = document.createElement('canvas').getContext('webgl');
const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
const permission = await navigator.permissions.query({ name: 'notifications' });
const hints = await navigator.userAgentData.getHighEntropyValues(['fullVersionList', 'platformVersion']);
Object.assign(out, {
  userAgent: navigator.userAgent,
  appVersion: navigator.appVersion,
  platform: navigator.platform,
  webdriver: navigator.webdriver,
  languages: navigator.languages,
  language: navigator.language,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  locale: Intl.DateTimeFormat().resolvedOptions().locale,
  plugins: navigator.plugins.length,
  mimeTypes: navigator.mimeTypes.length,
  chrome: typeof window.chrome === 'object' && typeof window.chrome.loadTimes === 'function',
  notification: Notification.permission,
  notificationQuery: permission.state,
  screen: { width: screen.width, height: screen.height, availHeight: screen.availHeight },
  window: { inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight] },
  deviceMemory: navigator.deviceMemory,
  cores: navigator.hardwareConcurrency,
  webgl: info ? [gl.getParameter(info.UNMASKED_VENDOR_WEBGL), gl.getParameter(info.UNMASKED_RENDERER_WEBGL)] : null,
  getParameterSource: WebGLRenderingContext.prototype.getParameter.toString(),
  brands: navigator.userAgentData.brands.map((b) => b.brand + '/' + b.version),
  fullVersionList: hints.fullVersionList.map((b) => b.brand + '/' + b.version),
  uaPlatform: navigator.userAgentData.platform,
  automationGlobals: Object.getOwnPropertyNames(window).filter((k) => /^cdc_|^\\$cdc_|playwright|__pw|webdriver|domAutomation/i.test(k)),
});
document.getElementById('probe').textContent = JSON.stringify(out);
const done = document.createElement("p");
done.textContent = "done";
done.id = 'probe-done';
document.body.append(done);
</script></body></html>`;

interface Probe {
  botd: { bot: boolean; botKind?: string; error?: string };
  userAgent: string;
  appVersion: string;
  platform: string;
  webdriver: boolean;
  languages: string[];
  language: string;
  timeZone: string;
  locale: string;
  plugins: number;
  mimeTypes: number;
  chrome: boolean;
  notification: string;
  notificationQuery: string;
  screen: { width: number; height: number; availHeight: number };
  window: { inner: [number, number]; outer: [number, number] };
  deviceMemory: number;
  cores: number;
  webgl: [string, string] | null;
  getParameterSource: string;
  brands: string[];
  fullVersionList: string[];
  uaPlatform: string;
  automationGlobals: string[];
}

let site: FixtureSite;
let proxy: ForwardProxy;
const engine = createBrowserEngine({ allowPrivateNetworks: true });
/** As in production: every connection through the guard proxy (loopback allowed here). */
const guarded = createBrowserEngine({
  allowPrivateNetworks: false,
  guard: { isAllowedAddress: (ip) => ip === '127.0.0.1' },
});
let documentHeaders: IncomingHttpHeaders[] = [];
let documentRaw: string[][] = [];
let scriptHeaders: IncomingHttpHeaders[] = [];
let chromeVersion = '';

before(async () => {
  site = await startFixtureSite();
  site.route('/botd.js', (req, res) => {
    scriptHeaders.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(BOTD);
  });
  site.route('/probe', (req, res) => {
    documentHeaders.push(req.headers);
    documentRaw.push(req.rawHeaders);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PROBE);
  });
  proxy = await startForwardProxy();
});

after(async () => {
  await engine.close();
  await guarded.close();
  await proxy.close();
  await site.close();
});

async function probe(
  options: Partial<ScrapeOptions>,
  proxies: ProxyEndpoint[] = [],
  renderer = engine,
) {
  documentHeaders = [];
  documentRaw = [];
  scriptHeaders = [];
  const snapshot = await renderer.render(
    renderPlan(
      site.url('/probe'),
      { instructions: [{ wait: '#probe-done' }], windowWidth: 1280, windowHeight: 800, ...options },
      { proxies },
    ),
  );
  const json = /<pre id="probe">(.*?)<\/pre>/s.exec(snapshot.html)?.[1] ?? '';
  const page = JSON.parse(
    json
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&'),
  ) as Probe;
  chromeVersion = /Chromium\/([\d.]+)/.exec(page.fullVersionList.join(' '))?.[1] ?? '';
  return { page, headers: documentHeaders[0]! };
}

/** Every point of a person's Chrome that does not depend on the country. */
function assertPersonsChrome(page: Probe, headers: IncomingHttpHeaders): void {
  assert.deepEqual(page.botd, { bot: false }, 'BotD: not a bot');
  const major = chromeVersion.split('.')[0];
  assert.ok(major, 'the full version list names Chromium');
  assert.equal(
    page.userAgent,
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
  );
  assert.doesNotMatch(`${page.userAgent} ${page.appVersion}`, /headless/i);
  assert.equal(headers['user-agent'], page.userAgent);
  assert.equal(page.platform, 'Win32');
  assert.equal(page.webdriver, false);
  assert.ok(page.plugins > 0 && page.mimeTypes > 0, 'plugins and mimeTypes like a headed Chrome');
  assert.equal(page.chrome, true, 'window.chrome');
  assert.equal(page.notification, 'default');
  assert.equal(page.notificationQuery, 'prompt', 'Notification and the permissions API agree');
  // Client hints: Google Chrome's brands, the same in the page and on the wire.
  assert.ok(page.brands.includes(`Google Chrome/${major}`), page.brands.join());
  assert.ok(page.brands.includes(`Chromium/${major}`));
  assert.ok(page.fullVersionList.includes(`Google Chrome/${chromeVersion}`));
  assert.equal(page.uaPlatform, 'Windows');
  assert.match(String(headers['sec-ch-ua']), new RegExp(`"Google Chrome";v="${major}"`));
  assert.doesNotMatch(String(headers['sec-ch-ua']), /headless/i);
  assert.equal(headers['sec-ch-ua-platform'], '"Windows"');
  // The window sits in a larger screen, with a frame around the page.
  assert.deepEqual(page.window.inner, [1280, 800]);
  assert.ok(page.screen.width >= 1280 && page.screen.height > 800, JSON.stringify(page.screen));
  assert.ok(page.screen.availHeight < page.screen.height);
  assert.equal(page.window.outer[0], 1280);
  assert.ok(page.window.outer[1] > 800 && page.window.outer[1] <= page.screen.availHeight);
  assert.ok(page.deviceMemory > 0 && page.deviceMemory <= 8, `deviceMemory ${page.deviceMemory}`);
  assert.ok(page.cores >= 4, `hardwareConcurrency ${page.cores}`);
  assert.ok(page.webgl, 'WebGL answers');
  assert.doesNotMatch(page.webgl.join(' '), /SwiftShader|llvmpipe|Mesa|software/i);
  assert.match(page.getParameterSource, /\[native code\]/);
  assert.deepEqual(page.automationGlobals, []);
  // No request is sent as a hard reload (Playwright's routing would turn the cache off).
  assert.equal(scriptHeaders.length, 1, 'the page loaded BotD');
  for (const sent of [headers, ...scriptHeaders]) {
    assert.equal(sent.pragma, undefined);
    assert.equal(sent['cache-control'], undefined);
  }
}

describe("a render is a person's Chrome", () => {
  test('without a proxy: BotD says human; the default locale, New York time', async () => {
    const { page, headers } = await probe({});
    assertPersonsChrome(page, headers);
    assert.deepEqual(page.languages, ['en-US', 'en']);
    assert.equal(headers['accept-language'], 'en-US,en;q=0.9');
    // The document request's headers in Chrome's order (HTTP/1.1 to a loopback origin),
    // without the Pragma and Cache-Control: no-cache of a hard reload (http-cache.ts).
    assert.deepEqual(
      documentRaw[0]!.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
      [
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
      ],
    );
    assert.equal(page.timeZone, 'America/New_York');
    assert.equal(page.locale, 'en-US');
  });

  test('through a proxy in Germany: German languages, locale and Berlin time', async () => {
    const before = proxy.proxied();
    const { page, headers } = await probe({ proxyCountry: 'DE' }, [
      { url: proxy.url, type: 'residential', country: 'DE' },
    ]);
    assert.ok(proxy.proxied() > before, 'the page came through the proxy');
    assertPersonsChrome(page, headers);
    assert.deepEqual(page.languages, ['de-DE', 'de', 'en-US', 'en']);
    assert.equal(page.language, 'de-DE');
    assert.equal(headers['accept-language'], 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7');
    assert.equal(page.timeZone, 'Europe/Berlin');
    assert.equal(page.locale, 'de-DE');
  });

  test("the caller's languages win over the country's, and leave with the scrape", async () => {
    const proxies: ProxyEndpoint[] = [{ url: proxy.url, type: 'residential', country: 'FR' }];
    const asked = await probe({ proxyCountry: 'FR', languages: ['it-IT', 'it'] }, proxies);
    assertPersonsChrome(asked.page, asked.headers);
    assert.deepEqual(asked.page.languages, ['it-IT', 'it']);
    assert.equal(asked.headers['accept-language'], 'it-IT,it;q=0.9');
    assert.equal(asked.page.timeZone, 'Europe/Paris', "the time zone stays the exit country's");
    const next = await probe({ proxyCountry: 'FR' }, proxies);
    assert.deepEqual(next.page.languages, ['fr-FR', 'fr', 'en-US', 'en']);
  });

  test('through the guard proxy and a proxy in Japan, as in production', async () => {
    const before = proxy.proxied();
    const { page, headers } = await probe(
      { proxyCountry: 'JP' },
      [{ url: proxy.url, type: 'datacenter', country: 'JP' }],
      guarded,
    );
    assertPersonsChrome(page, headers);
    assert.deepEqual(page.languages, ['ja-JP', 'ja', 'en-US', 'en']);
    assert.equal(page.timeZone, 'Asia/Tokyo');
    assert.ok(proxy.proxied() > before, 'the page came through the guard and the proxy');
    assert.ok(guarded.status().guardTickets > 0, 'the context holds a guard ticket');
  });

  test('a phone is Chrome on Android, with its own hints', async () => {
    const { page, headers } = await probe({ mobile: true });
    assert.deepEqual(page.botd, { bot: false });
    assert.match(
      page.userAgent,
      /^Mozilla\/5\.0 \(Linux; Android 10; K\) .* Chrome\/\d+\.0\.0\.0 Mobile Safari\/537\.36$/,
    );
    assert.equal(headers['sec-ch-ua-mobile'], '?1');
    assert.equal(headers['sec-ch-ua-platform'], '"Android"');
    assert.equal(page.webdriver, false);
  });
});
