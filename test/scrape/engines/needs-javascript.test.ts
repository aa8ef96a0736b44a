import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { needsJavascript } from '../../../src/scrape/engines/needs-javascript.js';

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
