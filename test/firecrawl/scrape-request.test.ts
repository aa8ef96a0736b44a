import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../src/errors.js';
import {
  type FirecrawlScrapeOptions,
  firecrawlScrapeOf,
  MAX_ACTIONS,
  V2_DEFAULT_MAX_AGE_MS,
} from '../../src/firecrawl/scrape-request.js';

const URL_ = 'https://example.com/page';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(isAppError(error), 'a catalog error');
    assert.equal(error.status, 400);
    return error.message;
  }
  assert.fail('expected a 400');
}

describe('firecrawlScrapeOf: Firecrawl options → pipeline options', () => {
  it("applies v2's defaults: markdown only, main content, ads blocked, fetch first, two days of cache", () => {
    const { options, maxAgeMs, storeInCache, screenshotBase64 } = firecrawlScrapeOf(URL_, {}, 'v2');
    assert.equal(options.url, URL_);
    assert.deepEqual(options.document, {
      markdown: true,
      html: false,
      rawHtml: false,
      links: false,
      screenshot: null,
      onlyMainContent: true,
      includeTags: [],
      excludeTags: [],
      removeBase64Images: true,
    });
    assert.equal(options.render, false);
    assert.equal(options.renderWhenNeeded, true);
    assert.equal(options.blockAds, true);
    assert.equal(options.blockCookieBanners, true);
    assert.equal(options.proxyType, 'datacenter');
    assert.equal(options.proxyEscalation, true, 'proxy auto by default on v2');
    assert.equal(options.timeoutMs, 60_000);
    assert.equal(options.skipTlsVerification, true);
    assert.equal(maxAgeMs, V2_DEFAULT_MAX_AGE_MS);
    assert.equal(storeInCache, true);
    assert.equal(screenshotBase64, false);
  });

  it("applies v1's defaults: 30 s, basic proxy, no cache reads, TLS verified", () => {
    const { options, maxAgeMs } = firecrawlScrapeOf(URL_, {}, 'v1');
    assert.equal(options.timeoutMs, 30_000);
    assert.equal(options.proxyEscalation, false);
    assert.equal(options.skipTlsVerification, false);
    assert.equal(maxAgeMs, 0);
  });

  it('takes several formats at once; a screenshot, actions, waitFor or mobile need the browser', () => {
    const { options, screenshotBase64 } = firecrawlScrapeOf(
      URL_,
      {
        formats: [
          'markdown',
          'html',
          'rawHtml',
          'links',
          { type: 'screenshot', fullPage: true, quality: 80, base64: true },
        ],
      },
      'v2',
    );
    assert.equal(options.render, true);
    assert.equal(options.renderWhenNeeded, false);
    assert.deepEqual(options.document?.screenshot, { fullPage: true, quality: 80, viewport: null });
    assert.ok(
      options.document?.markdown &&
        options.document.html &&
        options.document.rawHtml &&
        options.document.links,
    );
    assert.equal(screenshotBase64, true);
    for (const extra of [{ waitFor: 100 }, { mobile: true }, { actions: [{ type: 'scrape' }] }]) {
      assert.equal(
        firecrawlScrapeOf(URL_, extra, 'v2').options.render,
        true,
        JSON.stringify(extra),
      );
    }
    assert.deepEqual(
      firecrawlScrapeOf(URL_, { formats: ['screenshot@fullPage'] }, 'v1').options.document
        ?.screenshot,
      { fullPage: true, quality: null, viewport: null },
    );
  });

  it('maps every action kind onto the steps of the one browser engine', () => {
    const { options } = firecrawlScrapeOf(
      URL_,
      {
        actions: [
          { type: 'wait', milliseconds: 200 },
          { type: 'wait', selector: '#ready' },
          { type: 'click', selector: 'button' },
          { type: 'click', selector: '.more', all: true },
          { type: 'write', text: 'hello' },
          { type: 'press', key: 'Enter' },
          { type: 'scroll', direction: 'up', selector: '#list' },
          { type: 'scroll' },
          { type: 'screenshot', fullPage: true },
          { type: 'scrape' },
          { type: 'executeJavascript', script: 'return 1' },
        ],
      },
      'v2',
    );
    assert.deepEqual(options.instructions, [
      { delay: 200 },
      { wait: '#ready' },
      { click: 'button' },
      { click_all: '.more' },
      { write: 'hello' },
      { press: 'Enter' },
      { scroll: { direction: 'up', selector: '#list' } },
      { scroll: { direction: 'down', selector: null } },
      { screenshot: { fullPage: true, quality: null, viewport: null } },
      { snapshot: true },
      { evaluate: 'return 1' },
    ]);
  });

  it('refuses the model formats where they are not offered (batch scrapes, crawls)', () => {
    for (const format of ['json', 'summary', 'changeTracking']) {
      const text = refusal(() => firecrawlScrapeOf(URL_, { formats: [format] }, 'v2'));
      assert.match(
        text,
        new RegExp(`^The ${format} format is offered by /v1/scrape and /v2/scrape only`),
      );
    }
    assert.match(
      refusal(() => firecrawlScrapeOf(URL_, { formats: ['question'] }, 'v2', 'offered')),
      /^The question format needs a language model, which this server does not offer/,
    );
  });

  it('reads json and summary on /scrape: the model reads the Markdown, shown only if asked', () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const v2 = firecrawlScrapeOf(
      URL_,
      { formats: [{ type: 'json', schema, prompt: 'the title' }, 'summary'] },
      'v2',
      'offered',
    );
    assert.deepEqual(v2.model, {
      json: { field: 'json', schema, prompt: 'the title' },
      summary: true,
      markdown: false,
    });
    assert.equal(v2.options.document?.markdown, true);
    const v1 = firecrawlScrapeOf(
      URL_,
      { formats: ['markdown', 'json'], jsonOptions: { schema, systemPrompt: 'be brief' } },
      'v1',
      'offered',
    );
    assert.deepEqual(v1.model, {
      json: { field: 'json', schema, systemPrompt: 'be brief' },
      summary: false,
      markdown: true,
    });
    assert.equal(
      refusal(() => firecrawlScrapeOf(URL_, { formats: ['json'] }, 'v1', 'offered')),
      'The json format needs jsonOptions with a schema or a prompt',
    );
    assert.equal(
      refusal(() => firecrawlScrapeOf(URL_, { formats: [{ type: 'json' }] }, 'v2', 'offered')),
      'The json format needs a schema or a prompt',
    );
  });

  it("keeps Firecrawl's limits: actions, total wait, waitFor against timeout, one screenshot", () => {
    const many = Array.from({ length: MAX_ACTIONS + 1 }, () => ({ type: 'scrape' }));
    assert.equal(
      refusal(() => firecrawlScrapeOf(URL_, { actions: many }, 'v2')),
      `Number of actions cannot exceed ${MAX_ACTIONS}`,
    );
    assert.equal(
      refusal(() =>
        firecrawlScrapeOf(
          URL_,
          { waitFor: 30_000, timeout: 120_000, actions: [{ type: 'wait', milliseconds: 31_000 }] },
          'v2',
        ),
      ),
      'Total wait time (waitFor + wait actions) cannot exceed 60 seconds',
    );
    assert.equal(
      refusal(() => firecrawlScrapeOf(URL_, { waitFor: 20_000, timeout: 30_000 }, 'v2')),
      'waitFor must not exceed half of timeout',
    );
    assert.equal(
      refusal(() =>
        firecrawlScrapeOf(URL_, { formats: ['screenshot', { type: 'screenshot' }] }, 'v2'),
      ),
      'You may only specify one screenshot format',
    );
    assert.match(
      refusal(() => firecrawlScrapeOf(URL_, { actions: [{ type: 'wait' }] }, 'v2')),
      /Either 'milliseconds' or 'selector' must be provided/,
    );
  });

  it('maps proxy, location and languages; cuts budgets above the native maximum', () => {
    const stealth = firecrawlScrapeOf(
      URL_,
      { proxy: 'stealth', location: { country: 'de', languages: ['de-DE', 'en'] } },
      'v2',
    );
    assert.equal(stealth.options.proxyType, 'residential');
    assert.equal(stealth.options.proxyEscalation, false);
    assert.equal(stealth.options.proxyCountry, 'DE');
    assert.deepEqual(stealth.options.languages, ['de-DE', 'en']);
    assert.equal(firecrawlScrapeOf(URL_, { proxy: 'basic' }, 'v2').options.proxyEscalation, false);
    assert.equal(firecrawlScrapeOf(URL_, { timeout: 300_000 }, 'v2').options.timeoutMs, 120_000);
    assert.equal(
      firecrawlScrapeOf(URL_, { headers: { 'X-A': '1' } }, 'v2').options.skipTlsVerification,
      false,
      "v2 verifies TLS when the caller sends headers (Firecrawl's rule)",
    );
  });

  it('refuses a URL that is not absolute http(s)', () => {
    assert.match(
      refusal(() => firecrawlScrapeOf('ftp://example.com/', {}, 'v2')),
      /^Invalid value for url/,
    );
  });
});

describe('firecrawlScrapeOf: selectors', () => {
  it('refuses an invalid includeTags or excludeTags selector before any scrape', () => {
    assert.throws(
      () => firecrawlScrapeOf('https://example.com/', { includeTags: ['div[['] }, 'v2'),
      (error: unknown) =>
        isAppError(error) && error.status === 400 && /^Invalid includeTags: /.test(error.message),
    );
    assert.doesNotThrow(() =>
      firecrawlScrapeOf('https://example.com/', { excludeTags: ['nav', '.ad > p'] }, 'v2'),
    );
  });

  it("refuses an action's bad selector in the caller's words, before a browser starts", () => {
    const actions = [
      { type: 'wait', milliseconds: 10 },
      { type: 'click', selector: 'div[' },
    ] as unknown as FirecrawlScrapeOptions['actions'];
    assert.throws(
      () => firecrawlScrapeOf('https://example.com/', { actions }, 'v2'),
      (error: unknown) =>
        isAppError(error) &&
        error.status === 400 &&
        /^actions\[1\]: click selector "div\[": not valid CSS/.test(error.message),
    );
    const fine = [
      { type: 'wait', selector: '#main > .item:has(a)' },
    ] as unknown as FirecrawlScrapeOptions['actions'];
    assert.doesNotThrow(() => firecrawlScrapeOf('https://example.com/', { actions: fine }, 'v2'));
  });
});
