/**
 * render=true end to end: GET /api/scraper on the real service (composition root, real
 * Chromium, blockers wired) against fixture pages on loopback. One service for the file.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { freePort } from '../../helpers/free-port.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';

let service: TestService;
let site: FixtureSite;

interface Answer {
  status: number;
  type: string;
  credits: number;
  body: Buffer;
  text: string;
}

async function scrape(params: Record<string, string>): Promise<Answer> {
  const query = new URLSearchParams({ api_key: service.apiKey, ...params });
  const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    credits: Number(res.headers.get('x-credits-used')),
    body,
    text: body.toString('utf8'),
  };
}

function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'PNG signature');
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

// The script builds the text, so the raw HTML never contains it: only execution does.
const JS_PAGE = `<!doctype html><title>js</title><div id="a"></div>
<script>document.getElementById('a').textContent = ['injected', 'by', 'js'].join('-');</script>`;

// Every blockable sub-resource the page has, at its own path so the fixture counts each.
const RESOURCES_PAGE = `<!doctype html><html><head><title>resources</title>
<link rel="stylesheet" href="/r/style.css">
<style>@font-face { font-family: Fx; src: url(/r/font.woff2) format('woff2'); }
body { font-family: Fx, sans-serif; }</style>
<script src="/r/app.js"></script></head>
<body><p>Text in the fixture font.</p><img src="/r/photo.png" width="10" height="10">
<video src="/r/clip.webm" preload="auto" muted></video>
<iframe src="/r/frame"></iframe>
<script>fetch('/r/data.json');
const xhr = new XMLHttpRequest(); xhr.open('GET', '/r/xhr.json'); xhr.send();</script>
</body></html>`;

const RESOURCE_PATHS = [
  '/r/style.css',
  '/r/font.woff2',
  '/r/app.js',
  '/r/photo.png',
  '/r/clip.webm',
  '/r/data.json',
  '/r/xhr.json',
];

const FORM_PAGE = `<!doctype html><title>form</title>
<input id="q"><button id="go" type="button">Go</button>
<script>
document.getElementById('go').onclick = () => setTimeout(() => {
  const p = document.createElement('p');
  p.id = 'result';
  p.textContent = 'Searched for ' + document.getElementById('q').value;
  document.body.append(p);
}, 1000);
</script>`;

before(async () => {
  site = await startFixtureSite();
  site.html('/js', JS_PAGE);
  site.html('/long', '<body style="margin:0"><div style="height:3000px">long</div></body>');
  site.html('/resources', RESOURCES_PAGE);
  site.html('/r/frame', '<p>frame</p>');
  site.html('/form', FORM_PAGE);
  for (const path of RESOURCE_PATHS) {
    site.route(path, (_req, res) => res.writeHead(404).end());
  }
  service = await startService();
});

after(async () => {
  await service?.close();
  await site?.close();
});

test('JS-injected content appears with render=true and not with render=false', async () => {
  const rendered = await scrape({ url: site.url('/js'), render: 'true' });
  assert.equal(rendered.status, 200, rendered.text);
  assert.match(rendered.type, /^text\/html/);
  assert.match(rendered.text, /<div id="a">injected-by-js<\/div>/);
  const fetched = await scrape({ url: site.url('/js'), render: 'false' });
  assert.equal(fetched.status, 200, fetched.text);
  assert.doesNotMatch(fetched.text, /injected-by-js/);
  assert.match(fetched.text, /<div id="a"><\/div>/);
});

test('a render costs 15 credits, a plain fetch 1', async () => {
  const rendered = await scrape({ url: site.url('/page'), render: 'true' });
  assert.equal(rendered.status, 200);
  assert.equal(rendered.credits, 15);
  const fetched = await scrape({ url: site.url('/page') });
  assert.equal(fetched.credits, 1);
});

test('a viewport screenshot is a PNG of exactly window_width x window_height', async () => {
  const shot = await scrape({
    url: site.url('/long'),
    render: 'true',
    screenshot: 'true',
    window_width: '1024',
    window_height: '700',
  });
  assert.equal(shot.status, 200, shot.text);
  assert.equal(shot.type, 'image/png');
  assert.deepEqual(pngSize(shot.body), { width: 1024, height: 700 });
});

test('a full-page screenshot of a long page is taller than the viewport', async () => {
  const shot = await scrape({
    url: site.url('/long'),
    render: 'true',
    screenshot_full_page: 'true',
    window_width: '800',
    window_height: '600',
  });
  assert.equal(shot.status, 200, shot.text);
  const { width, height } = pngSize(shot.body);
  assert.equal(width, 800);
  assert.equal(height, 3000);
});

test('blocked resource types are never requested', async () => {
  const paths = RESOURCE_PATHS;
  site.resetCounters();
  const open = await scrape({ url: site.url('/resources'), render: 'true' });
  assert.equal(open.status, 200, open.text);
  // Control: without blocking the page asks for every one of them (fetch and XHR may land
  // just after `load`).
  await until(() => paths.every((path) => site.hits(path) > 0), 3_000).catch(() => {});
  for (const path of paths) assert.ok(site.hits(path) >= 1, `${path} without blocking`);
  site.resetCounters();
  const blocked = await scrape({
    url: site.url('/resources'),
    render: 'true',
    block_resources: 'stylesheet, font, script, image, media, fetch, xhr',
  });
  assert.equal(blocked.status, 200, blocked.text);
  assert.equal(site.hits('/r/frame'), 1, 'a frame is a document, never blocked by type');
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const path of paths) assert.equal(site.hits(path), 0, `${path} was requested`);
});

test('fill, click and wait reveal the text the page adds', async () => {
  const instructions = [{ fill: { selector: '#q', text: 'pagegrab' } }, { click: '#go' }];
  const without = await scrape({
    url: site.url('/form'),
    render: 'true',
    instructions: JSON.stringify(instructions),
  });
  assert.equal(without.status, 200, without.text);
  assert.doesNotMatch(without.text, /<p id="result">/);
  const answer = await scrape({
    url: site.url('/form'),
    render: 'true',
    instructions: JSON.stringify([...instructions, { wait: '#result' }]),
  });
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.text, /<p id="result">Searched for pagegrab<\/p>/);
});

test('a click on a missing target is 422 as missing and is not charged', async () => {
  const answer = await scrape({
    url: site.url('/form'),
    render: 'true',
    instructions: JSON.stringify([{ fill: { selector: '#q', text: 'x' } }, { click: '#nope' }]),
  });
  assert.equal(answer.status, 422, answer.text);
  assert.match(answer.type, /application\/json/);
  // The presence check's text, not a wait for the element to appear.
  assert.equal(
    JSON.parse(answer.text).error,
    'Instruction 1 (click) failed: no element matches #nope',
  );
  assert.equal(answer.credits, 0);
});

test('a wait whose selector never appears is 422, not a 504 at the end of the budget', async () => {
  const answer = await scrape({
    url: site.url('/form'),
    render: 'true',
    timeout: '2500',
    instructions: JSON.stringify([{ wait: '#never' }]),
  });
  assert.equal(answer.status, 422, answer.text);
  assert.equal(JSON.parse(answer.text).error, 'Instruction 0 (wait) failed: #never did not appear');
});

test('a page that moves to a closed port fails with its connection error, not charged', async () => {
  // Without the guard Chromium connects itself: its failed navigation is the only witness.
  const closed = `http://127.0.0.1:${await freePort()}/`;
  site.html('/moves-to-closed', `<p>moving</p><script>location.href = '${closed}'</script>`);
  const answer = await scrape({ url: site.url('/moves-to-closed'), render: 'true' });
  assert.equal(answer.status, 502, answer.text);
  assert.deepEqual(JSON.parse(answer.text), {
    error: 'Failed to fetch the page: connection refused',
  });
  assert.equal(answer.credits, 0);
});
