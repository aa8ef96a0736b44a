/**
 * The Firecrawl-door request as a command to paste (dashboard/src/lib/firecrawl-snippets.ts)
 * and a crawl export's file names (crawl-export.ts): pure text, checked as text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileNameOf } from '../../dashboard/src/components/crawls/crawl-export.js';
import { doorCurl, doorSdkCall } from '../../dashboard/src/lib/firecrawl-snippets.js';

test('curl sends the body as one shell-quoted JSON argument, a quote in it escaped, the key as $PAGEGRAB_API_KEY', () => {
  const curl = doorCurl('http://127.0.0.1:8080', 'v2', 'scrape', {
    url: "http://a.test/it's",
    formats: ['markdown'],
  });
  assert.equal(
    curl,
    [
      "curl -X POST 'http://127.0.0.1:8080/v2/scrape'",
      '-H "Authorization: Bearer $PAGEGRAB_API_KEY"',
      "-H 'Content-Type: application/json'",
      `-d '{"url":"http://a.test/it'\\''s","formats":["markdown"]}'`,
    ].join(' \\\n  '),
  );
});

test('the SDK call is the method of the call and version, the URL first, then the other fields', () => {
  const batch = doorSdkCall('http://h', 'v2', 'batch/scrape', { urls: ['http://a', 'http://b'] });
  assert.ok(batch.endsWith('const result = await firecrawl.batchScrape(["http://a","http://b"]);'));
  const v1 = doorSdkCall('http://h', 'v1', 'scrape', { url: 'http://a', onlyMainContent: false });
  assert.ok(
    v1.endsWith(
      'const result = await firecrawl.v1.scrapeUrl("http://a", {\n  "onlyMainContent": false\n});',
    ),
  );
  assert.match(v1, /apiUrl: "http:\/\/h"/);
});

test('export file names come from host and path, safe for any unzip, numbered when taken', () => {
  assert.equal(fileNameOf('http://127.0.0.1:9000/'), '127.0.0.1_9000.md');
  assert.equal(fileNameOf('https://a.test/docs/intro?x=1'), 'a.test_docs_intro_x_1.md');
  assert.equal(fileNameOf('https://a.test/../..', 2), 'a.test-2.md');
  assert.equal(fileNameOf(''), 'index.md');
});
