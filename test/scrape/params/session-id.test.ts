/**
 * `session_id`: a query-only parameter of the native API (never part of a config), the
 * Firecrawl door's `sessionId`, and the OpenAPI document saying what a session keeps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import { firecrawlScrapeOf } from '../../../src/firecrawl/scrape-request.js';
import { parseScraperRequest, scraperQuerySchema } from '../../../src/scrape/params/index.js';

const url = 'https://shop.example/';

function rejects(run: () => unknown, message: string) {
  assert.throws(
    run,
    (error: unknown) => isAppError(error) && error.status === 400 && error.message === message,
  );
}

describe('session_id', () => {
  it('is none by default and taken as given', () => {
    assert.equal(parseScraperRequest({ url }).sessionId, null);
    assert.equal(parseScraperRequest({ url, session_id: 'cart-7.a_b' }).sessionId, 'cart-7.a_b');
    assert.equal(parseScraperRequest({ url, session_id: '' }).sessionId, null);
  });

  it('refuses what could not be a name, and a repeated one', () => {
    const expected =
      'Invalid value for session_id: expected 1 to 100 letters, digits, dots, underscores or hyphens';
    rejects(() => parseScraperRequest({ url, session_id: 'has space' }), expected);
    rejects(() => parseScraperRequest({ url, session_id: 'x'.repeat(101) }), expected);
    rejects(
      () => parseScraperRequest({ url, session_id: ['a', 'b'] }),
      'Parameter session_id must be given only once',
    );
  });

  it('belongs to the call: a config or a workflow cannot hold one', () => {
    rejects(
      () => parseScraperRequest({ url, config: JSON.stringify({ session_id: 'x' }) }),
      'Unknown config field: session_id',
    );
  });

  it('is documented in the OpenAPI query schema: proxy, connection, cookies, 5 minutes', () => {
    const doc = scraperQuerySchema.properties.session_id?.description ?? '';
    assert.match(doc, /same proxy/);
    assert.match(doc, /same connection/);
    assert.match(doc, /same cookies/);
    assert.match(doc, /idle for 5 minutes/);
  });

  it("is the Firecrawl door's sessionId", () => {
    assert.equal(firecrawlScrapeOf(url, { sessionId: 's-1' }, 'v2').options.sessionId, 's-1');
    assert.equal(firecrawlScrapeOf(url, {}, 'v1').options.sessionId, null);
  });
});
