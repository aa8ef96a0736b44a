/**
 * render=false blocking runs in the output pool, off the event loop: a page that takes the
 * static blocker seconds does not hold back a small page beside it, and what the service
 * answers is exactly `stripBlocked` of the fetched HTML (then Markdown, in the same trip).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { htmlToMarkdown } from '../../../src/markdown/index.js';
import { loadFilterEngines } from '../../../src/scrape/blockers/filter-engines.js';
import { stripBlocked } from '../../../src/scrape/blockers/static-blocker.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import { builtFilterDir } from '../../scrape/blockers/built-filters.js';

const FIXTURE = readFileSync(
  new URL('../../helpers/fixtures/blocked-page.html', import.meta.url),
  'utf8',
);
const ADS = { ads: true, cookieBanners: false, chatWidgets: false };
/**
 * The fixture with an ad long enough that the main-content extractor keeps it as text, so
 * only the blocker can take it out of the Markdown (a short one the extractor drops itself).
 */
const LONG_AD = FIXTURE.replace(
  '<div class="banner-ad">Sponsored banner</div>',
  `<div class="banner-ad"><p>${'Sponsored: our partner sells the finest harbour tours, book now and save. '.repeat(4)}</p></div>`,
);

/** Posts with classes, ids, links and ad containers: ~8 MB, well over a second to strip. */
function bigAdPage(): string {
  const posts: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    posts.push(
      `<div class="post post-${i % 50}" id="p${i}"><h3>Post ${i}</h3>` +
        `<p>Text with <b>bold</b> and <a href="/t/${i}">a link</a>.</p>` +
        (i % 10 === 0 ? '<div class="banner-ad">ad</div>' : '') +
        '</div>',
    );
  }
  return `<!doctype html><html><head><title>Big</title></head><body><main>${posts.join('')}</main></body></html>`;
}

let site: FixtureSite;
let service: TestService;

before(async () => {
  builtFilterDir(); // the service loads build/filters (its default FILTERS_DIR)
  site = await startFixtureSite();
  site.html('/big-ads', bigAdPage());
  site.html('/blocked', FIXTURE);
  site.html('/blocked-long-ad', LONG_AD);
  service = await startService({ credits: 1000, env: { MARKDOWN_MAX_MS: '60000' } });
});
after(async () => {
  await service.close();
  await site.close();
});

async function scrape(path: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ url: site.url(path), ...extra });
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  return { response, text: await response.text() };
}

test('the service answers stripBlocked of the page, as HTML and as Markdown', async () => {
  const engines = await loadFilterEngines(builtFilterDir());
  const pageUrl = site.url('/blocked');
  const stripped = stripBlocked(FIXTURE, pageUrl, ADS, engines);
  assert.notEqual(stripped, FIXTURE, 'the fixture has ads to strip');

  const html = await scrape('/blocked', { block_ads: 'true' });
  assert.equal(html.response.status, 200);
  assert.equal(html.text, stripped);

  const longUrl = site.url('/blocked-long-ad');
  const longStripped = stripBlocked(LONG_AD, longUrl, ADS, engines);
  const md = await scrape('/blocked-long-ad', { block_ads: 'true', markdown: 'true' });
  assert.equal(md.response.status, 200);
  assert.equal(md.text, htmlToMarkdown(longStripped, longUrl));
  assert.doesNotMatch(md.text, /Sponsored/);
  const unblocked = await scrape('/blocked-long-ad', { markdown: 'true' });
  assert.match(unblocked.text, /Sponsored/, 'without blocking the ad is in the Markdown');
});

test('a small page is answered while a big block_ads page is still being stripped', async () => {
  // The workers are booted (engines loaded) by the test above or this warm-up.
  await scrape('/page', { block_ads: 'true' });
  const finished: string[] = [];
  const big = scrape('/big-ads', { block_ads: 'true' }).then((answer) => {
    finished.push('big');
    return answer;
  });
  // The big page has been fetched (it is on its way to a worker) before the small one is asked for.
  await until(() => site.hits('/big-ads') > 0, 60_000);
  const small = await scrape('/page');
  finished.push('small');
  assert.equal(small.response.status, 200);
  assert.match(small.text, /Hello fixture/);
  const { response, text } = await big;
  assert.equal(response.status, 200);
  // (includes, not match: a failure must not print 8 MB)
  assert.ok(!text.includes('class="banner-ad"'), 'the ad containers were stripped');
  assert.ok(text.includes('id="p39999"'), 'the posts were kept');
  // On the event loop the strip (> 1 s) would hold the small page back until it was done.
  assert.deepEqual(finished, ['small', 'big']);
});
