/**
 * The Markdown shape of each construct (issue 14, point 2), on small pages written for the
 * test: each page is an article with enough prose to be chosen as the main content and one
 * construct inside it, so that what is asserted is the serializer's output for it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMainContent, htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://example.com/blog/post.html';
const PROSE = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i} of the post, with commas, clauses, and enough words to read like prose that a person wrote.</p>`,
).join('');

const page = (inner: string, title = 'A post') =>
  `<!doctype html><html><head><title>${title}</title></head><body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article>${PROSE}${inner}</article>
  <footer><p>Copyright the site</p></footer></body></html>`;

const md = (inner: string) => htmlToMarkdown(page(inner), URL);

describe('Markdown shape: headings, lists, quotes', () => {
  it('keeps every heading level as that many #', () => {
    const out = md(
      '<h2>Two</h2><p>a</p><h3>Three</h3><p>b</p><h4>Four</h4><h5>Five</h5><h6>Six</h6>',
    );
    for (const [hashes, text] of [
      ['##', 'Two'],
      ['###', 'Three'],
      ['####', 'Four'],
      ['#####', 'Five'],
      ['######', 'Six'],
    ]) {
      assert.match(out, new RegExp(`^${hashes} ${text}$`, 'm'));
    }
  });

  it('nests lists by indentation under their item, ordered and unordered', () => {
    const out = md(
      '<ul><li>fruit<ul><li>apple</li><li>pear<ol><li>green</li><li>red</li></ol></li></ul></li><li>bread</li></ul>',
    );
    assert.match(out, /^- fruit\n {2}- apple\n {2}- pear\n {4}1\. green\n {4}2\. red\n- bread$/m);
  });

  it('renders a blockquote as > lines, a nested one as > >', () => {
    const out = md(
      '<blockquote><p>Said once.</p><blockquote><p>Said twice.</p></blockquote></blockquote>',
    );
    assert.match(out, /^> Said once\.\n>\n> > Said twice\.$/m);
  });
});

describe('Markdown shape: tables', () => {
  it('turns a data table into a GFM table with its header row', () => {
    const out = md(
      '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>apple</td><td>3</td></tr><tr><td>pear | green</td><td>5</td></tr></tbody></table>',
    );
    assert.match(
      out,
      /^\| Name \| Qty \|\n\| --- \| --- \|\n\| apple \| 3 \|\n\| pear \\\| green \| 5 \|$/m,
    );
  });

  it('turns a layout table (one column, or tables nested in it) into plain text', () => {
    const out = md(
      '<table><tr><td><p>Layout cell one says something.</p></td></tr><tr><td><p>Layout cell two.</p></td></tr></table>' +
        '<table><tr><td><table><tr><td>inner</td><td>cells</td></tr></table></td><td><p>Beside it.</p></td></tr></table>',
    );
    assert.match(out, /^Layout cell one says something\.$/m);
    assert.match(out, /^Layout cell two\.$/m);
    assert.match(out, /Beside it\./);
    assert.doesNotMatch(out, /\| Layout cell|\| --- \|[^\n]*\n\| Beside/);
  });
});

describe('Markdown shape: code', () => {
  it('fences a code block with the language the page gives', () => {
    const out = md(
      '<pre><code class="language-python">def f(x):\n    return x * 2\n</code></pre>' +
        '<pre class="highlight" data-lang="rust"><code>fn main() {}</code></pre>' +
        '<pre><code>plain text block</code></pre>',
    );
    assert.match(out, /^```python\ndef f\(x\):\n {4}return x \* 2\n```$/m);
    assert.match(out, /^```rust\nfn main\(\) \{\}\n```$/m);
    assert.match(out, /^```\nplain text block\n```$/m);
  });

  it('uses a longer fence when the code holds backticks, and inline code keeps its ticks', () => {
    const out = md('<pre><code>```\nnested\n```</code></pre><p>Call <code>a`b</code> now.</p>');
    assert.match(out, /^````\n```\nnested\n```\n````$/m);
    assert.match(out, /Call ``a`b`` now\./);
  });
});

describe('Markdown shape: links and images', () => {
  it('makes links absolute and drops links without text or target', () => {
    const out = md(
      '<p>See <a href="../docs/a.html">the docs</a>, <a href="//cdn.example.org/x">a CDN</a>, ' +
        '<a href="/icon"><span></span></a> an empty one, <a href="#top">top</a>, ' +
        '<a href="javascript:void(0)">a script</a> and <a>no target</a>.</p>',
    );
    assert.match(out, /\[the docs\]\(https:\/\/example\.com\/docs\/a\.html\)/);
    assert.match(out, /\[a CDN\]\(https:\/\/cdn\.example\.org\/x\)/);
    assert.doesNotMatch(out, /\[\]\(|\]\(#|javascript:/);
    assert.match(out, / top, a script and no target\./);
  });

  it('keeps images with their alt text and absolute source', () => {
    const out = md(
      '<figure><img src="img/cat.jpg" alt="A cat on a mat"><figcaption>The cat.</figcaption></figure>',
    );
    assert.match(out, /!\[A cat on a mat\]\(https:\/\/example\.com\/blog\/img\/cat\.jpg\)/);
    assert.match(out, /The cat\./);
  });
});

describe('Markdown shape: emphasis', () => {
  it('writes touching bold or italic runs as one, and keeps runs apart when text separates them', () => {
    const out = md(
      '<p><em><strong>"Split by</strong></em><strong></strong><em><strong> the editor"</strong></em>, he said.</p>' +
        '<p><b>one</b> <b>two</b> and <i>three</i><span></span><i>four</i>.</p>',
    );
    assert.match(out, /^_\*\*"Split by the editor"\*\*_, he said\.$/m);
    assert.match(out, /^\*\*one\*\* \*\*two\*\* and _threefour_\.$/m);
    assert.doesNotMatch(out, /\*\*\*\*|__/);
  });
});

describe('Markdown shape: no stray HTML', () => {
  it('leaves no tags, comments, scripts or styles in the output, and escapes literal <', () => {
    const out = md(
      '<p>Text <span class="x">in a span</span> <!-- a comment --> and <font color="red">font</font>.</p>' +
        '<script>var leak = 1;</script><style>.x { color: red }</style>' +
        '<p>Compare a &lt;b&gt; tag written as text.</p><div><section><p>The deep block is at the end of the post.</p></section></div>',
    );
    assert.doesNotMatch(out, /<\/?(?:span|font|script|style|div|section|p)\b|<!--|leak|color:/);
    assert.match(out, /Text in a span and font\./);
    assert.match(out, /a \\<b> tag written as text/);
    assert.match(out, /^The deep block is at the end of the post\.$/m);
  });
});

describe('Markdown shape: the headline', () => {
  const titled = (inner: string) => page(inner, 'How bread rises | The Baking Site');

  it('puts the page title first as # when asked, without the site name', () => {
    const out = htmlToMarkdown(titled(''), URL, { headline: true });
    assert.match(out, /^# How bread rises\n\nParagraph 0/);
  });

  it('prefers the page h1 that matches the title', () => {
    const html = titled('').replace('<article>', '<article><h1>How bread rises, explained</h1>');
    const out = htmlToMarkdown(html, URL, { headline: true });
    assert.match(out, /^# How bread rises, explained\n\nParagraph 0/);
    assert.equal(out.match(/How bread rises/g)?.length, 1);
  });

  it('does not repeat the headline when the content already starts with it', () => {
    const html = titled('').replace('<article>', '<article><h2>How bread rises</h2>');
    const out = htmlToMarkdown(html, URL, { headline: true });
    assert.equal(out.match(/How bread rises/g)?.length, 1);
  });

  it('is on by default, and off with headline: false', () => {
    assert.match(htmlToMarkdown(titled(''), URL), /^# How bread rises\n\nParagraph 0/);
    assert.match(htmlToMarkdown(titled(''), URL, { headline: false }), /^Paragraph 0/);
  });
});

describe('Markdown shape: related-link blocks inside the article', () => {
  it('drops "Read more: <link>" lines and a "See also" heading with its list', () => {
    const out = md(
      '<p>Read more: <a href="/other">Another story about something else</a></p>' +
        '<p>Lesen Sie auch: <a href="/andere">Eine andere Geschichte</a></p>' +
        '<h3>See also</h3><ul><li><a href="/a">First other post</a></li><li><a href="/b">Second other post</a></li></ul>' +
        '<p>Read more about the method in the paragraphs above, which explain it in some detail.</p>',
    );
    assert.doesNotMatch(out, /Another story|andere Geschichte|See also|other post/);
    assert.match(out, /Read more about the method/);
  });

  it('drops "Most read" and editor\'s picks headings with their teaser lists', () => {
    const out = md(
      '<h3>Empfehlung der Redaktion</h3><div class="teasers"><a href="/a">Ein anderer Artikel</a> <a href="/b">Noch einer</a></div>' +
        '<h3>Articles les plus lus</h3><ol><li><a href="/c">Un autre article</a></li><li><a href="/d">Encore un</a></li></ol>' +
        '<p>The most popular answer, the survey found, was the second one of the list.</p>',
    );
    assert.doesNotMatch(out, /Empfehlung|anderer Artikel|les plus lus|autre article/);
    assert.match(out, /The most popular answer/);
  });

  it('drops "More information" and "Related articles" labels with their links, and a "Weitere Infos unter <link>" line', () => {
    const out = md(
      '<p><strong>Weitere Informationen</strong></p><ul><li><a href="/a">Aktuelle Infos zum Workshop</a></li><li><a href="https://other.example/">Initiative</a></li></ul>' +
        '<p><strong>Weitere Infos unter <a href="https://juniors.example/">www.juniors.example</a></strong>.</p>' +
        '<p><strong>Verwandte Artikel:</strong></p><ul><li><a href="/c">Dichter und Denker</a></li><li><a href="/d">Ein Handbuch</a></li></ul>' +
        '<p>More information about the method is given in the paragraphs above, in some detail.</p>',
    );
    assert.doesNotMatch(out, /Weitere Info|Workshop|juniors|Verwandte|Dichter|Handbuch/);
    assert.match(out, /More information about the method/);
  });

  it('drops a tag list under its label', () => {
    const out = md(
      '<p>Tags:</p><ul><li><a href="/t/technik">Technik</a></li><li><a href="/t/ratgeber">Ratgeber</a></li></ul>' +
        '<div>Themen im Artikel</div>' +
        '<p>The topics of the survey were listed in the paragraphs above, in some detail.</p>',
    );
    assert.doesNotMatch(out, /Tags:|Technik|Ratgeber|Themen im Artikel/);
    assert.match(out, /The topics of the survey/);
  });
});

describe('Markdown shape: the same extraction for the HTML', () => {
  it('extractMainContent gives the Markdown htmlToMarkdown gives', () => {
    const html = page('<h2>Part</h2><p>More.</p>');
    assert.equal(extractMainContent(html, URL).markdown, htmlToMarkdown(html, URL));
  });
});
