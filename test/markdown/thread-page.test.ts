/**
 * Thread pages (thread-page.ts): a forum thread whose posts sit in comment-named containers
 * keeps its posts as the main content, while an article keeps dropping the comments under
 * it, however long they are. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { isThreadPage } from '../../src/markdown/thread-page.js';

const URL = 'https://forum.example.com/thread/42.html';

const post = (n: number, who: string) =>
  `<div class="ForumComment" id="Comment${n}">
    <div class="CommentProfile"><span class="CommentAuthor">${who}</span></div>
    <div class="CommentBody"><div class="CommentTime">12.10.19 10:0${n % 10}</div>
    <div class="CommentMessage">Post ${n}: since the update my phone no longer downloads apps over mobile data, although mobile data is enabled for the App Store in the settings, and I changed nothing else that I know of.</div></div>
  </div>`;

// the forum's latest threads beside the posts, as script-driven spans (no links to weigh
// them down): the text the scorer falls back to when it strips the posts as comments
const sidebar = `<section class="panel"><h3>Forum</h3><ul>${Array.from(
  { length: 12 },
  (_, i) =>
    `<li><span class="title">Another thread about a setting that broke after update ${i}</span> (${i})</li>`,
).join('')}</ul></section>`;

// ASP.NET-style: one form around the page
const forum = `<!doctype html><html><head><title>No App Store over mobile data</title></head><body>
  <form method="post" action="/thread/42.html"><div class="page">
    <div class="left"><h2>No App Store over mobile data</h2>
      ${post(1, 'first')}
      <h2 id="comments">Replies</h2>
      ${[2, 3, 4, 5].map((n) => post(n, `user${n}`)).join('')}
    </div>
    <div class="right">${sidebar}</div>
  </div></form>
  <footer><p>Copyright the forum</p></footer></body></html>`;

const articleProse = Array.from(
  { length: 8 },
  (_, i) =>
    `<p>Paragraph ${i} of the article, with commas, clauses, and enough words to read like prose that a person wrote for it.</p>`,
).join('');

const articleWithComments = `<!doctype html><html><head><title>An article</title></head><body>
  <div id="main"><h1>An article</h1><div class="story">${articleProse}</div>
  <div id="comments"><h2>Comments</h2>${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => post(n, `reader${n}`)).join('')}</div>
  </div></body></html>`;

const bodyOf = (html: string) => {
  const root = parseDocument(html).root;
  const find = (el: typeof root): typeof root | null => {
    if (el.tag === 'body') return el;
    for (const c of el.children) {
      if (c.type !== 'element') continue;
      const f = find(c);
      if (f) return f;
    }
    return null;
  };
  const body = find(root);
  assert.ok(body);
  return body;
};

describe('thread pages', () => {
  it('recognises a thread: the first prose is a post and posts hold most of the text', () => {
    assert.equal(isThreadPage(bodyOf(forum)), true);
  });

  it('does not take an article for a thread, however long its comments', () => {
    assert.equal(isThreadPage(bodyOf(articleWithComments)), false);
  });

  it("keeps a thread's posts, the first one included, instead of its sidebar", () => {
    const out = htmlToMarkdown(forum, URL);
    for (const n of [1, 2, 3, 4, 5]) assert.match(out, new RegExp(`Post ${n}: since the update`));
    // before thread pages were recognised, the posts were stripped as comments and the
    // sidebar was all that was left; now the first post opens the content
    assert.ok(
      out.indexOf('Post 1:') < out.indexOf('Another thread about a setting') ||
        !out.includes('Another thread'),
    );

    assert.doesNotMatch(out, /Copyright the forum/);
  });

  it('keeps dropping the comments under an article', () => {
    const out = htmlToMarkdown(articleWithComments, 'https://example.com/article.html');
    assert.match(out, /Paragraph 0 of the article/);
    assert.match(out, /Paragraph 7 of the article/);
    assert.doesNotMatch(out, /since the update/);
  });
});
