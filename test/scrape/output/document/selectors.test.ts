import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSelectors } from '../../../../src/scrape/output/index.js';

describe('assertSelectors (checked by the door before a scrape)', () => {
  it('accepts usual selectors and ignores blank ones', () => {
    assert.equal(
      assertSelectors(['article', '.post > p', '#main, aside', 'a[href^="/"]', 'div:has(p)', ' ']),
      null,
    );
    assert.equal(assertSelectors([]), null);
  });

  it('names the first selector it cannot use', () => {
    const reason = assertSelectors(['p', 'div[', '::before']);
    assert.ok(reason?.startsWith('"div[" is not a valid CSS selector'), reason ?? 'null');
  });

  it('refuses pseudo-elements, which match no element', () => {
    assert.match(assertSelectors(['p::before']) ?? '', /^"p::before" is not a valid CSS selector/);
  });
});
