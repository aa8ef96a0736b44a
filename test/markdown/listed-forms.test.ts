/**
 * Forms without fields (boilerplate.ts removeChrome's `listedForms`): a forum wraps its
 * replies in a moderation form (hidden inputs, a script's buttons) that chrome removal used
 * to drop with every other form, losing the replies (WCXB 0543). A form that asks for
 * something (a search box) still goes. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://forum.example/topic/12-new-case';

const OPENING = `I bought the new case last week and moved my build into it over the weekend. The front panel comes off without tools, the dust filters slide out from the side, and the cable channels behind the tray are deep enough for the thick power cables of a modern graphics card. `;
const REPLY = (n: number) =>
  `<article class="comment"><p>Reply ${n}: the fans that ship with the case are quiet at low speed, but at full speed they hum, so I set a curve in the firmware that keeps them under half until the graphics card passes seventy degrees, and the case stays cool.</p></article>`;

const page = () => `<!doctype html><html><head><title>New case</title></head><body>
  <form action="/search" method="post"><input type="text" name="q"><p>SEARCHFORM Search the forum for topics and replies</p></form>
  <main><h1>New case</h1>
  <p>${OPENING}</p>
  <form action="/topic/12?do=moderate" method="post"><input type="hidden" name="csrf" value="1">
  ${REPLY(1)}${REPLY(2)}${REPLY(3)}${REPLY(4)}
  </form></main>
  <footer><p>${OPENING.repeat(6)}</p></footer>
  </body></html>`;

describe('forms without fields', () => {
  it("keeps the replies a forum's moderation form wraps, not the search form", () => {
    const md = htmlToMarkdown(page(), URL);
    assert.match(md, /Reply 1: the fans/);
    assert.match(md, /Reply 2: the fans/);
    assert.doesNotMatch(md, /SEARCHFORM/);
  });
});
