/**
 * `<noscript>` read as a client without scripts reads it (noscript.ts): the noscript copy of
 * a post body that the page renders from a script template is the post; short notes and
 * image fallbacks are not text, and a copy beside the rendered text (a rendered DOM) is not
 * repeated. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://blog.example.com/2020/05/post.html';

const prose = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Paragraph ${i} of the post: threats on the web keep changing, and the protection we ship this month looks at each download, each page and each password before it is used.</p>`,
).join('');

const page = (postContent: string) => `<!doctype html><html><head><title>Post</title></head><body>
  <div class="header"><div class="header-desc">News and insights from the team</div></div>
  <div class="post"><h3 class="post-title">Enhanced protection</h3>
    <div class="post-body"><div class="post-content">${postContent}</div></div></div>
  <noscript><p>Please enable JavaScript to view the comments.</p></noscript>
  </body></html>`;

describe('noscript', () => {
  it('takes the noscript copy of a post rendered from a script template', () => {
    const md = htmlToMarkdown(
      page(`<script type="text/template">${prose}</script><noscript>${prose}</noscript>`),
      URL,
    );
    assert.match(md, /Paragraph 0 of the post/);
    assert.match(md, /Paragraph 4 of the post/);
    assert.doesNotMatch(md, /enable JavaScript/);
  });

  it('does not repeat the copy beside the text a script rendered (a rendered DOM)', () => {
    const md = htmlToMarkdown(
      page(`<div class="rendered">${prose}</div><noscript>${prose}</noscript>`),
      URL,
    );
    assert.equal(md.match(/Paragraph 0 of the post/g)?.length, 1);
  });

  it('drops image fallbacks and short notes', () => {
    const md = htmlToMarkdown(
      page(`${prose}<noscript><img src="/pixel.gif" alt="tracking pixel"></noscript>`),
      URL,
    );
    assert.match(md, /Paragraph 2 of the post/);
    assert.doesNotMatch(md, /tracking pixel|pixel\.gif/);
  });
});
