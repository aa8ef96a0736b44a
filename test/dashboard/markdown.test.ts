import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ComponentChild, VNode } from 'preact';
import { renderMarkdown, safeHref } from '../../dashboard/src/lib/markdown.js';

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Serialises the element tree the way the DOM would hold it: text escaped, attributes listed. */
function html(node: ComponentChild): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint')
    return esc(String(node));
  if (Array.isArray(node)) return node.map(html).join('');
  const v = node as VNode<Record<string, unknown>>;
  const { children, ...attrs } = v.props;
  const list = Object.entries(attrs)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(
      ([k, value]) =>
        ` ${k}="${typeof value === 'object' ? JSON.stringify(value) : String(value)}"`,
    )
    .join('');
  return `<${String(v.type)}${list}>${html(children as ComponentChild)}</${String(v.type)}>`;
}
const md = (s: string) => html(renderMarkdown(s));

test('raw HTML in Markdown stays text, never elements', () => {
  const out = md('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>');
  assert.ok(!out.includes('<script'));
  assert.ok(!out.includes('<img'));
  assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('only http, https and mailto links become anchors', () => {
  const out = md(
    '[a](javascript:alert(1)) [b](data:text/html,x) [c](https://example.com/x_(y)) <mailto:me@example.com>',
  );
  assert.equal((out.match(/<a /g) ?? []).length, 2);
  assert.match(out, /href="https:\/\/example.com\/x_\(y\)"/);
  assert.match(out, /rel="noopener noreferrer nofollow"/);
  assert.ok(!/href="(javascript|data):/.test(out));
  assert.equal(safeHref('javascript:alert(1)'), null);
});

test('images are links to their address, not loaded', () => {
  const out = md('![A cat](https://example.com/cat.png)');
  assert.ok(!out.includes('<img'));
  assert.match(
    out,
    /<a href="https:\/\/example.com\/cat.png"[^>]*><span class="md-img">\[image: A cat\]<\/span><\/a>/,
  );
});

test('headings, emphasis, inline code and paragraphs', () => {
  assert.equal(md('## Title ##'), '<h2>Title</h2>');
  assert.equal(
    md('a **b** _c_ `d*e*` ~~f~~'),
    '<p>a <strong>b</strong> <em>c</em> <code>d*e*</code> <del>f</del></p>',
  );
  assert.equal(md('one\ntwo\n\nthree'), '<p>one\ntwo</p><p>three</p>');
});

test('fenced code keeps its text verbatim', () => {
  assert.equal(
    md('```js\nconst a = "<b>";\n**no**\n```'),
    '<pre><code data-lang="js">const a = "&lt;b&gt;";\n**no**</code></pre>',
  );
});

test('lists, nested lists and ordered starts', () => {
  assert.equal(
    md('- a\n- b\n  - c\n- d'),
    '<ul><li>a</li><li><p>b</p><ul><li>c</li></ul></li><li>d</li></ul>',
  );
  assert.equal(md('3. x\n4. y'), '<ol start="3"><li>x</li><li>y</li></ol>');
});

test('GFM tables with alignment', () => {
  const out = md('| a | b |\n|:--|--:|\n| 1 | 2 \\| 3 |');
  assert.match(out, /<th style="\{"textAlign":"left"\}">a<\/th>/);
  assert.match(out, /<td style="\{"textAlign":"right"\}">2 \| 3<\/td>/);
});

test('block quotes and rules', () => {
  assert.equal(md('> quoted\n\n---'), '<blockquote><p>quoted</p></blockquote><hr></hr>');
});
