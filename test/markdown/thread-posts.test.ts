/**
 * Thread posts (thread-posts.ts): a discussion whose posts are built from one template (the
 * post's text in a block of one tag and classes, a date beside it) keeps every post when the
 * scorer kept one; blocks built alike without dates, and a story's comments, stay out.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://forum.example.com/discussion/7/moving-on';

const opening = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Part ${i} of the opening post: the project will no longer be maintained, and we recommend that every forum running it plans a migration, with care, before the next security issue.</p>`,
).join('');

const reply = (n: number, dated: boolean) =>
  `<li class="Item ItemComment" id="Comment_${n}">
    <div class="Meta"><a class="Author" href="/profile/user${n}">user${n}</a>
    ${dated ? `<time datetime="2025-03-0${n}T10:00:00Z">March ${n}, 2025</time>` : ''}</div>
    <div class="Message userContent"><p>Reply ${n} says its own piece: sad news, but we saw it coming, and we will move our community elsewhere soon.</p></div>
  </li>`;

const sidebar = `<div class="Panel"><h4>Categories</h4>${Array.from(
  { length: 8 },
  (_, i) => `<p><a href="/categories/${i}">Category ${i}</a></p>`,
).join('')}</div>`;

const thread = (head: string, dated: boolean) =>
  `<!doctype html><html><head><title>Moving on</title>
  <meta property="og:type" content="article">${head}</head><body>
  <div class="Frame"><div class="Content">
    <div class="Discussion"><h1>Moving on</h1>
      <div class="Meta"><a class="Author" href="/profile/admin">admin</a>
      ${dated ? '<time datetime="2025-03-01T09:00:00Z">March 1, 2025</time>' : ''}</div>
      <div class="Message userContent">${opening}</div>
    </div>
    <div class="CommentsWrap"><ul class="Comments">
      ${[1, 2, 3, 4].map((n) => reply(n, dated)).join('')}
    </ul></div>
  </div>${sidebar}</div></body></html>`;

describe('thread posts', () => {
  it('keeps the replies built like the opening post when each post is dated', () => {
    const md = htmlToMarkdown(thread('', true), URL);
    assert.match(md, /Part 0 of the opening post/);
    for (const n of [1, 2, 3, 4]) assert.match(md, new RegExp(`Reply ${n} says its own piece`));
    assert.doesNotMatch(md, /Category 3/);
  });

  it('leaves blocks built alike but carrying no date as they were', () => {
    const md = htmlToMarkdown(thread('', false), URL);
    assert.match(md, /Part 0 of the opening post/);
    assert.doesNotMatch(md, /Reply 2 says its own piece/);
  });

  it('keeps a story marked as a schema.org article without its comments built like it', () => {
    const ld =
      '<script type="application/ld+json">{"@type":"NewsArticle","headline":"Moving on"}</script>';
    const md = htmlToMarkdown(thread(ld, true), URL);
    assert.match(md, /Part 0 of the opening post/);
    assert.doesNotMatch(md, /Reply 2 says its own piece/);
  });
});
