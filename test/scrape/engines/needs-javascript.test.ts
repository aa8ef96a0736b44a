import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  needsJavascript,
  visibleTextLength,
} from '../../../src/scrape/engines/needs-javascript.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('needsJavascript: render a fetched page only when it plainly needs it', () => {
  it('an empty application root or a noscript asking for JavaScript, with almost no text', () => {
    assert.equal(
      needsJavascript({ html: page('<div id="root"></div><script src="/app.js"></script>') }),
      true,
    );
    assert.equal(needsJavascript({ html: page('<div id="__next"></div>') }), true);
    assert.equal(needsJavascript({ html: page('<app-root></app-root>') }), true);
    assert.equal(
      needsJavascript({
        html: page(
          '<noscript>You need to enable JavaScript to run this app.</noscript><div id="x"></div>',
        ),
      }),
      true,
    );
  });

  it('never a page with text, a short static page, or something that is not HTML', () => {
    const text = 'A paragraph of real content. '.repeat(20);
    assert.equal(needsJavascript({ html: page(`<div id="root"><p>${text}</p></div>`) }), false);
    assert.equal(needsJavascript({ html: page(`<div id="root"></div><p>${text}</p>`) }), false);
    assert.equal(needsJavascript({ html: page('<h1>Not found</h1>') }), false);
    assert.equal(
      needsJavascript({ html: '<div id="root"></div>', contentType: 'application/json' }),
      false,
    );
  });
});

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
