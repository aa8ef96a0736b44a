import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { visibleText, visibleTextLength } from '../../../src/scrape/engines/visible-text.js';

describe('visibleTextLength: the characters a reader sees', () => {
  const PAGE = `<html><head><title>Not counted</title><style>p{}</style></head><body>
    <!-- a comment --><script>var hidden = 1;</script><p>Two  words</p>
    <svg><text>drawn</text></svg><p>a&amp;b</p><noscript>Enable JavaScript</noscript></body></html>`;

  it('counts the body text with white space collapsed, entities as a space', () => {
    // "Two words a b": scripts, styles, comments, svg, noscript and the head left out
    assert.equal(visibleTextLength(PAGE), 'Two words a b'.length);
    assert.equal(visibleTextLength('  plain   text  '), 'plain text'.length);
    assert.equal(visibleTextLength('<body><div> </div></body>'), 0);
  });

  it('stops at the bound it is given, and agrees with the full count below it', () => {
    assert.equal(visibleTextLength(PAGE, 5), 5);
    assert.equal(visibleTextLength(PAGE, 100), visibleTextLength(PAGE));
    const long = `<body>${'<p>word </p>'.repeat(10_000)}</body>`;
    assert.equal(visibleTextLength(long, 200), 200);
    assert.ok(visibleTextLength(long) > 40_000);
  });
});

describe('visibleText: the words a reader sees', () => {
  it('holds the text of the body and none of its tags, attributes, scripts or styles', () => {
    const html =
      '<head><meta name="robots"></head><body><p class="human">Please verify</p>' +
      '<script>robot()</script><style>.x{}</style><p>you are human</p></body>';
    const text = visibleText(html);
    assert.match(text, /Please verify\s+you are human/);
    assert.doesNotMatch(text, /robot|class/);
  });

  it('stops at about atMost characters', () => {
    assert.ok(visibleText(`<p>${'word '.repeat(1000)}</p>`, 100).length < 200);
  });
});
