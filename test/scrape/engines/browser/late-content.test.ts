/**
 * Content that arrives after `load` (issue 13: a page that fills itself 200 ms after load
 * came back half empty; a full-page screenshot showed 8 of 11 lazily loaded sections):
 * wait_until, waitForMs and a wait step get the late content; a full-page screenshot
 * scrolls lazy sections into view first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import {
  addLateContentPages,
  LAZY_SECTIONS,
  SECTION_HEIGHT,
} from '../../../helpers/late-content-pages.js';
import { pngSize, renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const engine = createBrowserEngine({ allowPrivateNetworks: true });

/** DOMContentLoaded and load each leave a mark; the image at `src` holds `load` back. */
const slowImagePage = (src: string) => `<!doctype html><html><body><p id="marks"></p>
<img src="${src}">
<script>
const mark = (m) => { document.getElementById('marks').textContent += m + ' '; };
document.addEventListener('DOMContentLoaded', () => mark('dom'));
addEventListener('load', () => mark('load'));
</script></body></html>`;
/**
 * The image `load` waits for: 4 s, far longer than a render takes from DOMContentLoaded to
 * its snapshot, so a render that did not wait for `load` would miss its mark (it was 10 s,
 * which the domcontentloaded test needed too; that one's image never answers now).
 */
const LOAD_IMAGE_MS = 4_000;

before(async () => {
  site = await startFixtureSite();
  addLateContentPages(site);
  // Never answered: `load` cannot fire however slow the machine (the site drops the
  // connection when it closes).
  site.route('/never', () => {});
  site.html('/never-image', slowImagePage('/never'));
  site.html('/slow-image', slowImagePage(`/slow?ms=${LOAD_IMAGE_MS}`));
});

after(async () => {
  await engine.close();
  await site.close();
});

function loadedSections(html: string): number[] {
  return [...html.matchAll(/loaded (\d+)/g)].map((m) => Number(m[1]));
}

const ALL_SECTIONS = Array.from({ length: LAZY_SECTIONS }, (_, i) => i + 1);

describe('when a render counts as loaded', () => {
  test('domcontentloaded answers before a slow image lets load fire', async () => {
    const plan = renderPlan(site.url('/never-image'), {
      waitUntil: 'domcontentloaded',
      timeoutMs: 30_000,
    });
    const snapshot = await engine.render(plan);
    assert.match(snapshot.html, /<p id="marks">dom <\/p>/);
  });

  test('load (the default) waits for the load event', async () => {
    const marks = await engine.render(
      renderPlan(site.url('/slow-image'), { timeoutMs: 30_000, waitUntil: 'load' }),
    );
    assert.match(marks.html, /<p id="marks">dom load <\/p>/);
  });

  test('networkidle waits for the fetch a page makes once loaded', async () => {
    const plan = renderPlan(site.url('/late-fetch'), { waitUntil: 'networkidle' });
    const snapshot = await engine.render(plan);
    assert.match(snapshot.html, /<div id="late">fetched late<\/div>/);
  });

  test('networkidle on a page that never goes quiet takes the page as it is, not a 504', async () => {
    site.html(
      '/polling',
      `<p id="n">0</p><script>let n = 0;
       setInterval(() => fetch('/text').then(() => { document.getElementById('n').textContent = ++n; }), 100);
       </script>`,
    );
    const plan = renderPlan(site.url('/polling'), { waitUntil: 'networkidle', timeoutMs: 60_000 });
    const snapshot = await engine.render(plan);
    assert.equal(snapshot.status, 200);
    assert.match(snapshot.html, /<p id="n">\d+<\/p>/);
  });
});

describe('a page that fills itself 200 ms after load', () => {
  test('is complete with waitForMs', async () => {
    const snapshot = await engine.render(renderPlan(site.url('/late'), { waitForMs: 1_000 }));
    assert.match(snapshot.html, /<div id="late" class="done">filled late<\/div>/);
  });

  test('is complete with a wait step for the late element', async () => {
    const plan = renderPlan(site.url('/late'), { instructions: [{ wait: '#late.done' }] });
    const snapshot = await engine.render(plan);
    assert.match(snapshot.html, /filled late/);
  });

  test('a waitForMs that cannot fit in the budget is TIMED_OUT', async () => {
    const plan = renderPlan(site.url('/late'), { waitForMs: 5_000, timeoutMs: 1_500 });
    await assert.rejects(engine.render(plan), {
      code: 'TIMED_OUT',
      message: 'Timed out after 1500 ms',
    });
  });
});

describe('lazily loaded sections', () => {
  test('a full-page screenshot draws all 11 and is as tall as the page', async () => {
    const plan = renderPlan(site.url('/lazy'), { screenshotFullPage: true, windowHeight: 600 });
    const snapshot = await engine.render(plan);
    assert.deepEqual(loadedSections(snapshot.html), ALL_SECTIONS);
    assert.deepEqual(pngSize(snapshot.screenshot!), {
      width: 800,
      height: LAZY_SECTIONS * SECTION_HEIGHT,
    });
  });

  test('a full-page screenshot step draws them too', async () => {
    const plan = renderPlan(site.url('/lazy'), {
      instructions: [
        { screenshot: { fullPage: true, quality: null, viewport: null } },
        { evaluate: 'window.scrollY' },
      ],
    });
    const snapshot = await engine.render(plan);
    assert.deepEqual(loadedSections(snapshot.html), ALL_SECTIONS);
    assert.equal(pngSize(snapshot.actions!.screenshots[0]!).height, LAZY_SECTIONS * SECTION_HEIGHT);
    assert.deepEqual(snapshot.actions!.javascriptReturns, [{ type: 'number', value: 0 }]);
  });

  test("a document's full-page screenshot draws them too", async () => {
    const plan = renderPlan(
      site.url('/lazy'),
      {
        document: {
          markdown: true,
          html: false,
          rawHtml: false,
          links: false,
          screenshot: { fullPage: true, quality: 70, viewport: null },
          onlyMainContent: true,
          includeTags: [],
          excludeTags: [],
          removeBase64Images: true,
        },
      },
      { output: 'document' },
    );
    const snapshot = await engine.render(plan);
    assert.deepEqual(loadedSections(snapshot.html), ALL_SECTIONS);
    assert.equal(snapshot.screenshot![0], 0xff, 'a JPEG, as the quality asks');
  });

  test('an HTML render without a screenshot does not scroll', async () => {
    const snapshot = await engine.render(renderPlan(site.url('/lazy'), { windowHeight: 600 }));
    assert.ok(loadedSections(snapshot.html).length < LAZY_SECTIONS);
  });
});
