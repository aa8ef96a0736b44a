/**
 * The identity holds in every target of a render, not only in its main frame: a dedicated
 * worker, a worker started by that worker, a cross-site frame (another loopback address,
 * so an out-of-process frame under site isolation), that frame's own worker and a shared
 * worker each read the same user agent, brands, platforms, languages, locale, time zone,
 * device memory, cores and WebGL strings as the page, and the identity chosen for the
 * render. Playwright attaches to each of those targets and resumes it itself
 * (target-identity.ts); before the fix a worker read `brands: []`, `Linux x86_64`, this
 * host's memory and cores and the browser's languages, the cross-site frame Chromium's
 * brands, and the shared worker a `HeadlessChrome` user agent. Requests the workers send
 * carry the page's user agent and languages.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { acceptLanguage } from '../../../../src/scrape/engines/identity/chrome-identity.js';
import type { ScrapeOptions } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

/** What each target reads: the same function runs in the page, the frame and the workers. */
const PROBE = `async function probe() {
  const hints = await navigator.userAgentData.getHighEntropyValues(['fullVersionList', 'platformVersion']);
  let webgl = null;
  try {
    const gl = new OffscreenCanvas(1, 1).getContext('webgl');
    const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
    if (info) webgl = [gl.getParameter(info.UNMASKED_VENDOR_WEBGL), gl.getParameter(info.UNMASKED_RENDERER_WEBGL)];
  } catch (error) {
    webgl = String(error);
  }
  return {
    userAgent: navigator.userAgent,
    appVersion: navigator.appVersion,
    brands: navigator.userAgentData.brands.map((b) => b.brand + '/' + b.version),
    fullVersionList: hints.fullVersionList.map((b) => b.brand + '/' + b.version),
    uaPlatform: navigator.userAgentData.platform,
    platformVersion: hints.platformVersion,
    mobile: navigator.userAgentData.mobile,
    platform: navigator.platform,
    languages: navigator.languages,
    language: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    deviceMemory: navigator.deviceMemory,
    cores: navigator.hardwareConcurrency,
    webgl,
  };
}`;

/** A worker that reports its own probe, after one request (whose headers the site keeps). */
const WORKER = `${PROBE}
fetch('/worker-request?from=' + encodeURIComponent(self.name)).then(() => probe()).then((own) => {
  if (self.name !== 'worker') return postMessage({ [self.name]: own });
  // The worker's own worker: a nested dedicated worker target.
  const nested = new Worker('/probe-worker.js', { name: 'nestedWorker' });
  nested.onmessage = (event) => postMessage({ worker: own, ...event.data });
});`;

/** A shared worker: it reports to each page that connects. */
const SHARED_WORKER = `${PROBE}
onconnect = (event) => {
  const port = event.ports[0];
  fetch('/worker-request?from=sharedWorker').then(() => probe()).then((sharedWorker) => port.postMessage({ sharedWorker }));
};`;

/** Collects every target's probe into `#probe` as JSON, then adds `#probe-done`. */
function pageHtml(frameOrigin: string): string {
  return `<!doctype html><html><head><title>Targets</title></head><body>
<p>A page with a worker and a frame from another site.</p>
<pre id="probe"></pre>
<script>
${PROBE}
const EXPECTED = ['page', 'worker', 'nestedWorker', 'frame', 'frameWorker', 'sharedWorker'];
const results = {};
const add = (found) => {
  Object.assign(results, found);
  document.getElementById('probe').textContent = JSON.stringify(results);
  if (!EXPECTED.every((name) => name in results)) return;
  const done = document.createElement('p');
  done.id = 'probe-done';
  done.textContent = 'done';
  document.body.append(done);
};
probe().then((page) => add({ page }));
new Worker('/probe-worker.js', { name: 'worker' }).onmessage = (event) => add(event.data);
new SharedWorker('/probe-shared.js').port.onmessage = (event) => add(event.data);
window.addEventListener('message', (event) => add(event.data));
const frame = document.createElement('iframe');
frame.src = '${frameOrigin}/probe-frame';
document.body.append(frame);
</script></body></html>`;
}

const FRAME = `<!doctype html><html><body><p>Another site's frame.</p><script>
${PROBE}
probe().then((frame) => parent.postMessage({ frame }, '*'));
new Worker('/probe-worker.js', { name: 'frameWorker' }).onmessage = (event) => parent.postMessage(event.data, '*');
</script></body></html>`;

interface TargetProbe {
  userAgent: string;
  appVersion: string;
  brands: string[];
  fullVersionList: string[];
  uaPlatform: string;
  platformVersion: string;
  mobile: boolean;
  platform: string;
  languages: string[];
  language: string;
  timeZone: string;
  locale: string;
  deviceMemory: number;
  cores: number;
  webgl: [string, string] | string | null;
}

const TARGETS = ['page', 'worker', 'nestedWorker', 'frame', 'frameWorker', 'sharedWorker'] as const;
type Probes = Record<(typeof TARGETS)[number], TargetProbe>;

let site: FixtureSite;
/** Another site (another loopback address): its frame is out of process. */
let otherSite: FixtureSite;
let workerRequests: IncomingHttpHeaders[] = [];
const engine = createBrowserEngine({ allowPrivateNetworks: true });

before(async () => {
  site = await startFixtureSite();
  otherSite = await startFixtureSite({ host: '127.0.0.2' });
  for (const each of [site, otherSite]) {
    each.route('/probe-worker.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(WORKER);
    });
    each.route('/probe-shared.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(SHARED_WORKER);
    });
    each.route('/worker-request', (req, res) => {
      workerRequests.push(req.headers);
      res.writeHead(204);
      res.end();
    });
  }
  site.html('/probe', pageHtml(otherSite.origin));
  otherSite.html('/probe-frame', FRAME);
});

after(async () => {
  await engine.close();
  await site.close();
  await otherSite.close();
});

async function probe(options: Partial<ScrapeOptions>): Promise<Probes> {
  workerRequests = [];
  const snapshot = await engine.render(
    renderPlan(site.url('/probe'), {
      instructions: [{ wait: '#probe-done' }],
      windowWidth: 1280,
      windowHeight: 800,
      ...options,
    }),
  );
  const json = /<pre id="probe">(.*?)<\/pre>/s.exec(snapshot.html)?.[1] ?? '';
  return JSON.parse(
    json
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&'),
  ) as Probes;
}

/** Every target reads what the page reads, and the page reads the identity chosen. */
function assertOneIdentity(
  probes: Probes,
  expected: { languages: string[]; locale: string; timeZone: string },
): void {
  const { page } = probes;
  const major = /Chrome\/(\d+)\./.exec(page.userAgent)?.[1];
  assert.ok(major, page.userAgent);
  assert.match(page.userAgent, /\(Windows NT 10\.0; Win64; x64\)/);
  assert.equal(page.appVersion, page.userAgent.slice('Mozilla/'.length));
  assert.ok(page.brands.includes(`Google Chrome/${major}`), page.brands.join());
  assert.equal(page.uaPlatform, 'Windows');
  assert.equal(page.platform, 'Win32');
  assert.deepEqual(page.languages, expected.languages);
  assert.equal(page.language, expected.languages[0]);
  assert.equal(page.locale, expected.locale);
  assert.equal(page.timeZone, expected.timeZone);
  assert.equal(page.deviceMemory, 8);
  assert.equal(page.cores, 8);
  assert.ok(Array.isArray(page.webgl), `WebGL answers in the page: ${String(page.webgl)}`);
  assert.doesNotMatch(page.webgl.join(' '), /SwiftShader|llvmpipe|Mesa|software/i);
  for (const target of TARGETS) {
    assert.deepEqual(probes[target], page, `${target} reads what the page reads`);
  }
  // Requests from the workers carry the page's user agent and languages. Chromium sends no
  // client hints from a dedicated worker (a plain Chromium without any override does not
  // either), so if a Sec-CH-UA ever appears it must name Google Chrome.
  assert.equal(workerRequests.length, 4, 'one request from each worker');
  for (const headers of workerRequests) {
    assert.equal(headers['user-agent'], page.userAgent);
    assert.equal(headers['accept-language'], acceptLanguage(expected.languages));
    assert.equal(headers.pragma, undefined, 'not sent as a hard reload');
    assert.equal(headers['cache-control'], undefined);
    const hints = headers['sec-ch-ua'];
    if (hints !== undefined)
      assert.match(String(hints), new RegExp(`"Google Chrome";v="${major}"`));
  }
}

describe('every target of a render is the same Chrome', () => {
  test('a German identity: page, workers, a cross-site frame and its worker agree', async () => {
    const probes = await probe({ proxyCountry: 'DE' });
    assertOneIdentity(probes, {
      languages: ['de-DE', 'de', 'en-US', 'en'],
      locale: 'de-DE',
      timeZone: 'Europe/Berlin',
    });
  });

  test("the caller's languages reach the workers and frames too", async () => {
    const probes = await probe({ proxyCountry: 'FR', languages: ['it-IT', 'it'] });
    assertOneIdentity(probes, {
      languages: ['it-IT', 'it'],
      locale: 'fr-FR',
      timeZone: 'Europe/Paris',
    });
  });

  test('the default identity: en-US and New York time everywhere', async () => {
    const probes = await probe({});
    assertOneIdentity(probes, {
      languages: ['en-US', 'en'],
      locale: 'en-US',
      timeZone: 'America/New_York',
    });
  });
});
