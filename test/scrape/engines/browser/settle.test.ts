/**
 * `wait_until=settled`, the default render (issue 25): every loading pattern of
 * helpers/loading-patterns.ts answers its content, not its shell, through the native door;
 * pages that keep requests or timers going still end; a client-side move is followed to
 * the page where it lands; `load` keeps its old meaning.
 *
 * The service's settle cap is as long as the caller's timeout here, so a page that held the
 * settle would hold the answer to the timeout: the client's own abort is only a guard.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import {
  addLoadingPatterns,
  LOADING_PATTERNS,
  type LoadingPattern,
  loadingPattern,
} from '../../../helpers/loading-patterns.js';
import { startService, type TestService } from '../../../helpers/service.js';

const TIMEOUT_MS = 120_000;
const LATE_MOVE_MS = 1_000;
/** Far below TIMEOUT_MS, far above a render on a busy machine: a page that held it. */
const GUARD_MS = 80_000;

let site: FixtureSite;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  addLoadingPatterns(site);
  // Moves late enough that a render ending at the load event would have missed them.
  const shell = (head: string, script: string) =>
    `<!doctype html><html><head>${head}</head><body><div id="app">Loading...</div><script>${script}</script></body></html>`;
  site.html(
    '/moves/location',
    shell(
      '',
      `addEventListener('load', () => setTimeout(() => { location.href = '/patterns/landing?from=location'; }, ${LATE_MOVE_MS}));`,
    ),
  );
  site.html(
    '/moves/meta',
    shell(
      `<meta http-equiv="refresh" content="${LATE_MOVE_MS / 1000}; url=/patterns/landing?from=meta">`,
      '',
    ),
  );
  service = await startService({
    credits: 10_000,
    concurrencyLimit: 20,
    env: { RENDER_SETTLE_MAX_MS: String(TIMEOUT_MS) },
  });
});
after(async () => {
  await service.close();
  await site.close();
});

async function render(path: string, more: Record<string, string> = {}) {
  const query = new URLSearchParams({
    url: site.url(path),
    render: 'true',
    markdown: 'true',
    timeout: String(TIMEOUT_MS),
    ...more,
  });
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
    signal: AbortSignal.timeout(GUARD_MS),
  });
  return { response, text: await response.text() };
}

async function expectComplete(pattern: LoadingPattern): Promise<void> {
  const { response, text } = await render(pattern.path);
  assert.equal(response.status, 200, `${pattern.name}: ${text}`);
  assert.ok(text.includes(pattern.marker), `${pattern.name} lacks its content: ${text}`);
  assert.ok(!text.includes(pattern.placeholder), `${pattern.name} is its shell: ${text}`);
  if (pattern.landsOn) {
    const landed = new URL(response.headers.get('x-target-url') ?? '');
    assert.equal(landed.pathname, pattern.landsOn, pattern.name);
  }
}

test('every loading pattern answers its content, not its shell, by default', async () => {
  const waiting = LOADING_PATTERNS.filter((p) => !p.keepsBusy);
  await Promise.all(waiting.map(expectComplete));
});

test('pages that keep requests, streams, polls or timers going still end with their content', async () => {
  const busy = LOADING_PATTERNS.filter((p) => p.keepsBusy);
  assert.ok(busy.length >= 4);
  await Promise.all(busy.map(expectComplete));
});

test('a client-side move is followed: the answer is the page where it lands', async () => {
  for (const from of ['location', 'meta']) {
    const { response, text } = await render(`/moves/${from}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-target-status'), '200');
    assert.equal(response.headers.get('x-target-url'), site.url(`/patterns/landing?from=${from}`));
    assert.match(text, /The page moved here on its own/);
  }
});

test('wait_until=load keeps its meaning: the page as it is at the load event', async () => {
  const pattern = loadingPattern('timer');
  const { response, text } = await render(pattern.path, { wait_until: 'load' });
  assert.equal(response.status, 200);
  assert.ok(text.includes(pattern.placeholder), text);
  assert.ok(!text.includes(pattern.marker), text);
});

test('a wait_until the service does not know is a 400 naming every value', async () => {
  const { response, text } = await render('/patterns/static', { wait_until: 'idle' });
  assert.equal(response.status, 400);
  assert.deepEqual(JSON.parse(text), {
    error:
      'Invalid value for wait_until: expected one of settled, load, domcontentloaded, networkidle',
  });
});
