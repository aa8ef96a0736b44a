import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import { buildDocument } from '../../../src/scrape/output/document/build-document.js';
import { createOutputStage } from '../../../src/scrape/output/index.js';
import type {
  DocumentRequest,
  PageDocument,
  PageSnapshot,
  ScrapeOptions,
  ScrapeResult,
  ScrapeRun,
} from '../../../src/scrape/types.js';
import { builtFilterDir } from '../blockers/built-filters.js';
import { ARTICLE, PAGE_URL, request } from './document/fixtures.js';

const ALL: Partial<DocumentRequest> = {
  markdown: true,
  html: true,
  rawHtml: true,
  links: true,
  screenshot: { fullPage: false, quality: null, viewport: null },
};
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
/** Takes seconds to process (a 6 MB page of 200,000 short blocks). */
const HUGE = `<html><body>${'<div><p>para <b>bold</b> and <a href="/x">link</a></p></div>'.repeat(200_000)}</body></html>`;

function runFor(
  document: DocumentRequest | null,
  timeoutMs = 30_000,
  signal = new AbortController().signal,
): ScrapeRun {
  return {
    options: { timeoutMs, document } as ScrapeOptions,
    engine: 'browser',
    output: 'document',
    block: null,
    proxies: [],
    isolationKey: 'test-account',
    deadline: Date.now() + timeoutMs,
    signal,
  };
}

function snapshot(html = ARTICLE, extra: Partial<PageSnapshot> = {}): PageSnapshot {
  return {
    finalUrl: PAGE_URL,
    status: 200,
    html,
    contentType: 'text/html; charset=utf-8',
    ...extra,
  };
}

/** The result's PageDocument, as the worker built it. */
function parse(result: ScrapeResult): PageDocument {
  assert.ok(result.document, 'the result carries its PageDocument');
  return result.document;
}

describe('document output through the output stage (a real worker)', () => {
  const stage = createOutputStage({ size: 1, maxMs: 1_000 });
  after(() => stage.close());

  it('answers every asked format as the PageDocument buildDocument builds, not as JSON', async () => {
    const page = snapshot(ARTICLE, {
      screenshot: PNG,
      used: { engine: 'browser', proxyType: 'datacenter' },
    });
    const result = await stage.produce(runFor(request(ALL)), page);
    assert.equal(result.contentType, 'application/json; charset=utf-8');
    assert.equal(result.finalUrl, PAGE_URL);
    assert.equal(result.targetStatus, 200);
    assert.deepEqual(result.used, { engine: 'browser', proxyType: 'datacenter' });
    const doc = parse(result);
    // handed over as it was built: no JSON on the way, and no bytes to parse
    assert.equal(result.body, undefined);
    const expected = buildDocument({
      rawHtml: ARTICLE,
      html: ARTICLE,
      pageUrl: PAGE_URL,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      request: request(ALL),
      screenshot: PNG,
      actions: null,
    });
    assert.deepEqual(doc, expected);
    assert.deepEqual(doc.screenshot, { contentType: 'image/png', base64: PNG.toString('base64') });
    assert.equal(doc.rawHtml, ARTICLE);
    assert.equal(doc.metadata.title, 'The story');
  });

  it('onlyMainContent false brings the navigation and footer back', async () => {
    const main = parse(await stage.produce(runFor(request({ markdown: true })), snapshot()));
    const whole = parse(
      await stage.produce(runFor(request({ markdown: true, onlyMainContent: false })), snapshot()),
    );
    assert.doesNotMatch(main.markdown ?? '', /NAVHOME|FOOTERTEXT/);
    assert.match(whole.markdown ?? '', /NAVHOME[\s\S]*FOOTERTEXT/);
  });

  it("carries the steps' screenshots, scrapes and return values", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 1]);
    const actions = {
      screenshots: [jpeg, PNG],
      snapshots: [{ url: PAGE_URL, html: '<p>after the click</p>' }],
      javascriptReturns: [{ type: 'object', value: { n: 1, list: ['a'] } }],
    };
    const doc = parse(
      await stage.produce(runFor(request({ markdown: true })), snapshot(ARTICLE, { actions })),
    );
    assert.deepEqual(doc.actions, {
      screenshots: [
        { contentType: 'image/jpeg', base64: jpeg.toString('base64') },
        { contentType: 'image/png', base64: PNG.toString('base64') },
      ],
      scrapes: actions.snapshots,
      javascriptReturns: actions.javascriptReturns,
    });
  });

  it('a page that is not HTML comes back as its text', async () => {
    const text = 'plain <text>\nsecond line';
    const doc = parse(
      await stage.produce(
        runFor(request({ markdown: true, html: true })),
        snapshot(text, { contentType: 'text/plain; charset=utf-8' }),
      ),
    );
    assert.equal(doc.markdown, text);
    assert.equal(doc.html, text);
    assert.equal(doc.metadata.contentType, 'text/plain; charset=utf-8');
  });

  it('a screenshot asked for but not taken is BROWSER_FAILED', async () => {
    const error = await stage
      .produce(runFor(request({ screenshot: ALL.screenshot ?? null })), snapshot())
      .catch((e: unknown) => e);
    assert.ok(isAppError(error) && error.code === 'BROWSER_FAILED', String(error));
  });

  it('a document plan without its request is INTERNAL', async () => {
    const error = await stage.produce(runFor(null), snapshot()).catch((e: unknown) => e);
    assert.ok(isAppError(error) && error.code === 'INTERNAL', String(error));
  });

  it('a step value that cannot cross to the worker fails that page only', async () => {
    const actions = {
      screenshots: [],
      snapshots: [],
      javascriptReturns: [{ type: 'function', value: () => 1 }],
    };
    const error = await stage
      .produce(runFor(request({ markdown: true })), snapshot(ARTICLE, { actions }))
      .catch((e: unknown) => e);
    assert.ok(isAppError(error) && error.code === 'INTERNAL', String(error));
    const next = await stage.produce(runFor(request({ markdown: true })), snapshot());
    assert.match(parse(next).markdown ?? '', /Paragraph 0/);
  });

  it("is capped like a conversion: TIMED_OUT with the scrape's budget", async () => {
    const error = await stage
      .produce(runFor(request({ markdown: true, html: true, links: true }), 300), snapshot(HUGE))
      .catch((e: unknown) => e);
    assert.ok(isAppError(error) && error.code === 'TIMED_OUT', String(error));
    assert.equal(error.message, 'Timed out after 300 ms');
    // the replacement worker takes the next page
    const next = await stage.produce(runFor(request({ markdown: true })), snapshot());
    assert.match(parse(next).markdown ?? '', /Paragraph 0/);
  });

  it('stops when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client gone')), 50);
    await assert.rejects(
      stage.produce(runFor(request({ markdown: true }), 30_000, controller.signal), snapshot(HUGE)),
      (error) => error === controller.signal.reason,
    );
  });
});

describe('document output with the static blocker', () => {
  const PAGE = 'http://127.0.0.1:1234/article';
  const ADS = { ads: true, cookieBanners: false, chatWidgets: false };
  const FIXTURE = readFileSync(
    new URL('../../helpers/fixtures/blocked-page.html', import.meta.url),
    'utf8',
  );
  const stage = createOutputStage({ size: 1, maxMs: 5_000, filtersDir: builtFilterDir() });
  after(() => stage.close());

  it('rawHtml is the page as loaded; html and markdown are the page stripped, in one trip', async () => {
    const result = await stage.produce(
      {
        ...runFor(request({ rawHtml: true, html: true, onlyMainContent: false })),
        engine: 'fetch',
      },
      { ...snapshot(FIXTURE), finalUrl: PAGE },
      ADS,
    );
    const doc = parse(result);
    assert.equal(doc.rawHtml, FIXTURE);
    assert.match(doc.rawHtml ?? '', /banner-ad/);
    assert.doesNotMatch(doc.html ?? '', /banner-ad|Sponsored banner/);
    assert.match(doc.html ?? '', /This paragraph is the main content/);
  });
});
