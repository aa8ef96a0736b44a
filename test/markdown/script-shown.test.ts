/**
 * Pages whose content a script shows (script-shown.ts): a streamed page sends its content
 * in `<div hidden>` or `display:none` blocks that a script reveals, and is converted as a
 * browser shows it; a page that shows its text as sent keeps its hidden blocks out. Pages
 * written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://blog.example.com/posts/tides';

const prose = (what: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${what} paragraph ${i}: the tide comes in twice a day, and the harbour, which is shallow, empties almost to the last boat before it fills again, slowly.</p>`,
  ).join('');

const streamed = (hiding: string) => `<!doctype html><html><head><title>Tides</title></head><body>
  <div ${hiding}><div><nav><a href="/">Home</a></nav><main><article><h1>Tides in the harbour</h1>
  ${prose('Streamed', 6)}</article></main></div></div>
  <script>$RC("B:0","S:0")</script></body></html>`;

describe('pages whose content a script shows', () => {
  it('converts a page streamed into a <div hidden> as a browser shows it', () => {
    const md = htmlToMarkdown(streamed('hidden id="S:0"'), URL);
    assert.match(md, /Streamed paragraph 0/);
    assert.match(md, /Streamed paragraph 5/);
  });

  it('converts a page sent in display:none blocks as a browser shows it', () => {
    const md = htmlToMarkdown(streamed('style="display:none"'), URL);
    assert.match(md, /Streamed paragraph 3/);
  });

  it('keeps hidden blocks out of a page that shows its text as sent', () => {
    const page = `<!doctype html><html><head><title>Tides</title></head><body><main>
      <article><h1>Tides in the harbour</h1>${prose('Shown', 4)}</article>
      <div hidden>${prose('Hidden', 12)}</div></main></body></html>`;
    const md = htmlToMarkdown(page, URL);
    assert.match(md, /Shown paragraph 3/);
    assert.doesNotMatch(md, /Hidden paragraph/);
  });
});
