/** Firecrawl's map body as a MapRequest, with its defaults (firecrawl-map-request.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapRequestOf } from '../../src/map/firecrawl-map-request.js';

describe('mapRequestOf', () => {
  it("applies Firecrawl v2's defaults", () => {
    assert.deepEqual(mapRequestOf({ url: 'https://e.com' }, 'v2'), {
      url: 'https://e.com/',
      search: null,
      limit: 5000,
      includeSubdomains: true,
      ignoreQueryParameters: true,
      sitemap: 'include',
      filterByPath: true,
      timeoutMs: null,
      languages: [],
    });
  });

  it('keeps query parameters by default on v1', () => {
    assert.equal(mapRequestOf({ url: 'https://e.com' }, 'v1').ignoreQueryParameters, false);
  });

  it("reads v1's sitemapOnly and ignoreSitemap, sitemapOnly first", () => {
    const mode = (body: object) => mapRequestOf({ url: 'https://e.com', ...body }, 'v1').sitemap;
    assert.equal(mode({ sitemapOnly: true }), 'only');
    assert.equal(mode({ ignoreSitemap: true }), 'skip');
    assert.equal(mode({ ignoreSitemap: true, sitemapOnly: true }), 'only');
    assert.equal(mode({}), 'include');
  });

  it('assumes http:// for a bare host, and refuses other schemes', () => {
    assert.equal(mapRequestOf({ url: 'e.com/docs' }, 'v2').url, 'http://e.com/docs');
    assert.throws(() => mapRequestOf({ url: 'ftp://e.com/' }, 'v2'), /Invalid value for url/);
  });

  it('takes the rest as given', () => {
    const request = mapRequestOf(
      {
        url: 'https://e.com',
        search: '  docs ',
        limit: 10.7,
        includeSubdomains: false,
        sitemap: 'skip',
        timeout: 2000,
        location: { country: 'DE', languages: ['de-DE'] },
      },
      'v2',
    );
    assert.equal(request.search, 'docs');
    assert.equal(request.limit, 10);
    assert.equal(request.includeSubdomains, false);
    assert.equal(request.sitemap, 'skip');
    assert.equal(request.timeoutMs, 2000);
    assert.deepEqual(request.languages, ['de-DE']);
  });
});
