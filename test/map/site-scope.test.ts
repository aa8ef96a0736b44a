/** Which links are the site's, and when two links are one (site-scope.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dedupeKey, inScope, normalisedLink, siteScopeOf } from '../../src/map/site-scope.js';

const scope = (start: string, includeSubdomains = true, filterByPath = true, final?: string) =>
  siteScopeOf(start, final ?? null, { includeSubdomains, filterByPath });
const on = (s: ReturnType<typeof scope>, url: string) => inScope(s, new URL(url));

describe('site scope', () => {
  it('takes the start host, with or without www., on any scheme and port', () => {
    const s = scope('https://example.com/');
    assert.ok(on(s, 'https://example.com/a'));
    assert.ok(on(s, 'http://www.example.com/a'));
    assert.ok(on(s, 'https://example.com:8443/a'));
    assert.ok(!on(s, 'https://example.org/a'));
    assert.ok(!on(s, 'https://notexample.com/a'));
  });

  it('takes subdomains only with includeSubdomains', () => {
    assert.ok(on(scope('https://www.example.com/'), 'https://blog.example.com/post'));
    assert.ok(on(scope('https://example.com/'), 'https://a.b.example.com/'));
    assert.ok(!on(scope('https://example.com/', false), 'https://blog.example.com/post'));
  });

  it('does not take the parent of a subdomain', () => {
    const s = scope('https://blog.example.com/');
    assert.ok(!on(s, 'https://example.com/'));
    assert.ok(on(s, 'https://x.blog.example.com/'));
  });

  it('takes the host the start page redirected to', () => {
    const s = scope('https://example.com/', false, true, 'https://example.net/home');
    assert.ok(on(s, 'https://example.net/other'));
    assert.ok(on(s, 'https://example.com/other'));
  });

  it('keeps links under the start path when it has one, unless filterByPath is false', () => {
    const s = scope('https://example.com/docs/');
    assert.ok(on(s, 'https://example.com/docs/intro'));
    assert.ok(!on(s, 'https://example.com/blog/'));
    assert.ok(on(scope('https://example.com/docs/', true, false), 'https://example.com/blog/'));
  });
});

describe('link normalisation', () => {
  it('drops the fragment, and the query when asked', () => {
    assert.equal(normalisedLink('https://e.com/a?x=1#top', false)?.href, 'https://e.com/a?x=1');
    assert.equal(normalisedLink('https://e.com/a?x=1#top', true)?.href, 'https://e.com/a');
  });

  it('refuses what is not an http(s) URL', () => {
    assert.equal(normalisedLink('mailto:a@e.com', true), null);
    assert.equal(normalisedLink('/relative', true), null);
    assert.equal(normalisedLink('ftp://e.com/x', true), null);
  });

  it('makes scheme and www. variants one', () => {
    const key = (url: string) => dedupeKey(new URL(url));
    assert.equal(key('http://www.e.com/a'), key('https://e.com/a'));
    assert.notEqual(key('https://e.com/a'), key('https://e.com/a/'));
    assert.notEqual(key('https://e.com:8080/a'), key('https://e.com/a'));
  });
});
