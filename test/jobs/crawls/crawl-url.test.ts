/** The frontier's normalisation rules (jobs/crawls/crawl-url.ts) and the crawl's scope. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crawlOptionsOf, crawlScopeOf } from '../../../src/jobs/crawls/crawl-options.js';
import { normaliseCrawlUrl } from '../../../src/jobs/crawls/crawl-url.js';

const key = (raw: string, ignoreQuery = false) =>
  normaliseCrawlUrl(raw, 'https://example.com/docs/', ignoreQuery)?.key;

describe('crawl URL normalisation', () => {
  it('makes one key of scheme, www, host case, default ports, fragments and a trailing slash', () => {
    const same = [
      'https://example.com/a',
      'http://example.com/a',
      'https://WWW.Example.COM/a',
      'https://example.com:443/a',
      'http://example.com:80/a',
      'https://example.com/a#part',
      'https://example.com/a/',
      '/a',
      '../a',
    ];
    for (const raw of same) assert.equal(key(raw), 'example.com/a', raw);
    assert.equal(key('https://example.com/'), 'example.com/');
    assert.equal(key('https://example.com:8443/a'), 'example.com:8443/a');
  });

  it('keeps the query as written unless ignoreQueryParameters; an empty ? is none', () => {
    assert.equal(key('/a?b=1&a=2'), 'example.com/a?b=1&a=2');
    assert.notEqual(key('/a?b=1&a=2'), key('/a?a=2&b=1'));
    assert.equal(key('/a?b=1', true), 'example.com/a');
    assert.equal(key('/a?'), 'example.com/a');
  });

  it('scrapes the first form seen without its fragment; refuses other schemes and credentials', () => {
    const url = normaliseCrawlUrl('HTTP://WWW.Example.com/A/#x', undefined, false);
    assert.deepEqual(url, {
      url: 'http://www.example.com/A/',
      key: 'example.com/A',
      host: 'www.example.com',
    });
    assert.equal(normaliseCrawlUrl('mailto:a@example.com', undefined, false), null);
    assert.equal(normaliseCrawlUrl('ftp://example.com/', undefined, false), null);
    assert.equal(normaliseCrawlUrl('https://user:pw@example.com/', undefined, false), null);
    assert.equal(normaliseCrawlUrl('not a url', undefined, false), null);
  });
});

describe('crawl scope', () => {
  const scope = (start: string, body: Parameters<typeof crawlOptionsOf>[0] = {}) =>
    crawlScopeOf(start, crawlOptionsOf(body, 100_000));
  const u = (raw: string) => new URL(raw);

  it('stays under the start path unless crawlEntireDomain, on the site unless told otherwise', () => {
    const admits = scope('https://example.com/docs/intro');
    assert.ok(admits(u('https://example.com/docs/other'), 1));
    assert.ok(admits(u('https://www.example.com/docs/x/y'), 1));
    assert.ok(!admits(u('https://example.com/blog/'), 1));
    assert.ok(!admits(u('https://blog.example.com/docs/a'), 1));
    assert.ok(!admits(u('https://other.org/docs/a'), 1));
    assert.ok(
      scope('https://example.com/docs/intro', { crawlEntireDomain: true })(
        u('https://example.com/blog/'),
        1,
      ),
    );
    assert.ok(
      scope('https://example.com/', { allowSubdomains: true })(u('https://blog.example.com/a'), 1),
    );
    assert.ok(
      scope('https://example.com/', { allowExternalLinks: true })(u('https://other.org/a'), 1),
    );
  });

  it('applies depth, include and exclude patterns (on the path, or the whole URL)', () => {
    assert.ok(
      !scope('https://example.com/', { maxDiscoveryDepth: 2 })(u('https://example.com/a'), 3),
    );
    assert.ok(
      scope('https://example.com/', { maxDiscoveryDepth: 2 })(u('https://example.com/a'), 2),
    );
    assert.ok(!scope('https://example.com/a/', { maxDepth: 1 })(u('https://example.com/a/b/c'), 1));
    assert.ok(scope('https://example.com/a/', { maxDepth: 1 })(u('https://example.com/a/b'), 1));
    const filtered = scope('https://example.com/', {
      includePaths: ['^/blog/'],
      excludePaths: ['draft'],
    });
    assert.ok(filtered(u('https://example.com/blog/post'), 1));
    assert.ok(!filtered(u('https://example.com/blog/draft-1'), 1));
    assert.ok(!filtered(u('https://example.com/docs/'), 1));
    const full = scope('https://example.com/', {
      includePaths: ['^https://example\\.com/b'],
      regexOnFullURL: true,
    });
    assert.ok(full(u('https://example.com/blog'), 1));
  });

  it('refuses a pattern that is not a regular expression, and cuts limit to the bound', () => {
    assert.throws(
      () => crawlOptionsOf({ includePaths: ['('] }, 10),
      /includePaths\[0\] is not a valid regular expression/,
    );
    assert.equal(crawlOptionsOf({ limit: 50 }, 10).limit, 10);
    assert.equal(crawlOptionsOf({}, 100_000).limit, 10_000);
    assert.equal(crawlOptionsOf({ ignoreSitemap: true }, 10).sitemap, 'skip');
    assert.equal(crawlOptionsOf({ allowBackwardLinks: true }, 10).crawlEntireDomain, true);
    assert.equal(crawlOptionsOf({ delay: 1.5 }, 10).delayMs, 1500);
  });
});
