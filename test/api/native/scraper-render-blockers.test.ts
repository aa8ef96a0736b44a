/**
 * block_ads, block_cookie_banners and block_chat_widgets with render=true through
 * GET /api/scraper, with the real filter engines from build/filters and autoconsent.
 * Each unwanted element is painted a solid colour of its own, so "gone from the
 * screenshot" is checked on the decoded pixels, not on the markup.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { oneTrustBanner } from '../../helpers/fixtures/consent-banners.js';
import { startService, type TestService } from '../../helpers/service.js';

let service: TestService;
let site: FixtureSite;

const COLOURS = {
  ad: [255, 0, 0],
  cookieBanner: [0, 255, 0],
  intercomContainer: [0, 0, 255],
  intercomLightweight: [255, 255, 0],
  content: [255, 0, 255],
} as const;
type Painted = keyof typeof COLOURS;
const css = (name: Painted) => `background:rgb(${COLOURS[name].join(',')})`;

// AdSense's `<ins class="adsbygoogle" data-ad-client>` is hidden by the lists' generic
// cosmetic rules (`ins.adsbygoogle[data-ad-client]`); `/ads/728x90.gif` and
// `/www/delivery/avw.php` match their generic network rules, on loopback too (contract 2.12).
// The OneTrust markup is what autoconsent's Onetrust rule detects and opts out of.
const PAGE = `<!doctype html><html><head><title>blockers</title></head><body style="margin:0">
<main><div id="keep" style="width:200px;height:80px;${css('content')}">content</div>
<ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="1" style="display:block;width:300px;height:100px;${css('ad')}">
  <img src="/ads/728x90.gif" width="1" height="1"></ins>
<iframe src="/www/delivery/avw.php?zoneid=1" width="50" height="20"></iframe></main>
${oneTrustBanner({
  style: `position:fixed;top:200px;left:0;right:0;height:120px;${css('cookieBanner')}`,
  reportTo: '/consent/',
})}
<div id="intercom-container" style="position:fixed;right:0;bottom:0;width:120px;height:120px;${css('intercomContainer')}"></div>
<div class="intercom-lightweight-app" style="position:fixed;left:0;bottom:0;width:120px;height:120px;${css('intercomLightweight')}"></div>
</body></html>`;

/** RGB(A) pixels of an 8-bit, non-interlaced PNG (what Chromium writes). */
function decodePng(png: Buffer): { width: number; height: number; channels: number; px: Buffer } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colourType, , , interlace] = png.subarray(24, 29);
  assert.equal(depth, 8);
  assert.equal(interlace, 0);
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  assert.ok(channels > 0, `colour type ${colourType}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') {
      idat.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= channels ? (px[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (px[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (px[(y - 1) * stride + x - channels] as number) : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter as number] as number;
      px[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, px };
}

/** How many pixels of each painted colour the screenshot shows. */
function paintedPixels(png: Buffer): Record<Painted, number> {
  const { channels, px } = decodePng(png);
  const counts = {
    ad: 0,
    cookieBanner: 0,
    intercomContainer: 0,
    intercomLightweight: 0,
    content: 0,
  };
  const names = Object.keys(COLOURS) as Painted[];
  for (let i = 0; i < px.length; i += channels) {
    for (const name of names) {
      const [r, g, b] = COLOURS[name];
      if (px[i] === r && px[i + 1] === g && px[i + 2] === b) counts[name] += 1;
    }
  }
  return counts;
}

async function screenshot(extra: Record<string, string>) {
  const query = new URLSearchParams({
    api_key: service.apiKey,
    url: site.url('/blockers'),
    render: 'true',
    screenshot: 'true',
    window_width: '800',
    window_height: '600',
    ...extra,
  });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200, body.toString());
  assert.equal(res.headers.get('content-type'), 'image/png');
  return body;
}

before(async () => {
  site = await startFixtureSite();
  site.html('/blockers', PAGE);
  site.route('/ads/728x90.gif', (_req, res) => res.writeHead(204).end());
  site.html('/www/delivery/avw.php', '<p>ad frame</p>');
  for (const path of ['/consent/accept', '/consent/reject']) {
    site.route(path, (_req, res) => res.writeHead(204).end());
  }
  service = await startService();
});

after(async () => {
  await service?.close();
  await site?.close();
});

test('without blocking options the ad, banner and widgets are all painted', async () => {
  site.resetCounters();
  const seen = paintedPixels(await screenshot({}));
  for (const [name, count] of Object.entries(seen)) assert.ok(count > 1000, `${name}: ${count}`);
  assert.equal(site.hits('/ads/728x90.gif'), 1);
  assert.equal(site.hits('/www/delivery/avw.php'), 1);
  assert.equal(site.hits('/consent/accept') + site.hits('/consent/reject'), 0);
});

test('with the three blockers only the content is left, and the banner is never accepted', async () => {
  site.resetCounters();
  const seen = paintedPixels(
    await screenshot({
      block_ads: 'true',
      block_cookie_banners: 'true',
      block_chat_widgets: 'true',
    }),
  );
  assert.deepEqual(
    { ...seen, content: seen.content > 1000 },
    { ad: 0, cookieBanner: 0, intercomContainer: 0, intercomLightweight: 0, content: true },
  );
  assert.equal(site.hits('/ads/728x90.gif'), 0, 'the ad image was requested');
  assert.equal(site.hits('/www/delivery/avw.php'), 0, 'the ad frame was requested');
  assert.equal(site.hits('/consent/accept'), 0, 'the accept control was clicked');
  // The rejector, not only the hiding CSS, dealt with the banner: it chose "Reject All".
  assert.equal(site.hits('/consent/reject'), 1);
});
