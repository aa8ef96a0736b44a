import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://example.com/news/2024/story.html';

/** Enough prose for extraction to recognise an article. */
function prose(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    s += `<p>Paragraph ${i} of the story, with commas, clauses, and enough words to read like prose, which the scorer rewards for length and punctuation.</p>\n`;
  }
  return s;
}

function page(article: string, chrome = ''): string {
  return `<!doctype html><html><head><title>Story</title></head><body>${chrome}
    <main><article>${article}</article></main></body></html>`;
}

describe('htmlToMarkdown: chrome removal', () => {
  const chrome = [
    ['nav', '<nav><a href="/a">NAVLINK one</a> <a href="/b">NAVLINK two</a></nav>'],
    [
      'footer',
      '<footer><p>FOOTERTEXT copyright and all rights reserved, a long line.</p></footer>',
    ],
    [
      'aside',
      '<aside><p>ASIDETEXT sidebar promotion with a long enough sentence, yes.</p></aside>',
    ],
    ['cookie banner', '<div class="cookie-banner"><p>COOKIETEXT we use cookies, accept?</p></div>'],
    ['consent dialog', '<div id="gdpr-consent"><p>CONSENTTEXT manage your choices.</p></div>'],
    [
      'form',
      '<form action="/s"><label>FORMTEXT email</label><input name="q"><button>Go</button></form>',
    ],
    ['share widget', '<div class="share-buttons"><a href="/tw">SHARETEXT Tweet</a></div>'],
  ] as const;
  for (const [name, html] of chrome) {
    it(`removes a ${name}`, () => {
      const md = htmlToMarkdown(page(prose(), html), URL);
      assert.match(md, /Paragraph 4 of the story/);
      assert.doesNotMatch(
        md,
        /NAVLINK|FOOTERTEXT|ASIDETEXT|COOKIETEXT|CONSENTTEXT|FORMTEXT|SHARETEXT/,
      );
    });
  }
  it('removes chrome placed inside the article too', () => {
    const md = htmlToMarkdown(
      page(`${prose()}<div class="newsletter-signup"><p>SIGNUPTEXT get our mail</p></div>`),
      URL,
    );
    assert.doesNotMatch(md, /SIGNUPTEXT/);
  });
});

describe('htmlToMarkdown: article metadata', () => {
  it('drops photo credits, datelines and related-link blocks but keeps figcaptions', () => {
    const md = htmlToMarkdown(
      page(`<p class="dateline">Published 3 May 2024, 10:00</p>${prose()}
        <figure><img src="/a.jpg" alt=""><figcaption>FIGCAPTION a harbour.</figcaption></figure>
        <span class="image-credit">CREDITTEXT Getty</span>
        <div class="related-stories"><a href="/x">RELATEDTEXT other story</a></div>`),
      URL,
    );
    assert.match(md, /FIGCAPTION a harbour/);
    assert.doesNotMatch(md, /Published 3 May|CREDITTEXT|RELATEDTEXT/);
  });

  it('drops datelines in German, French and Spanish; keeps a sentence that starts like one', () => {
    const md = htmlToMarkdown(
      page(
        `<p><strong>Aktualisiert am</strong> 17.01.2021.</p>${prose()}<div>Mis à jour le 3 mai 2024</div><p><em>Publicado el 3 de mayo</em></p><p>Stand der Technik ist das nicht, sagte der Ingenieur.</p>`,
      ),
      URL,
    );
    assert.doesNotMatch(md, /Aktualisiert|Mis à jour|Publicado/);
    assert.match(md, /Stand der Technik ist das nicht/);
  });

  it("drops a story's section kicker, keeps a category cell of a table", () => {
    const md = htmlToMarkdown(
      page(
        `<div class="info"><span class="date">02.02.2022</span> <span class="category">Nationalteams</span></div>${prose()}<table><tr><th>Name</th><th>Kind</th></tr><tr><td>Linux</td><td class="category">Operating system</td></tr><tr><td>Vim</td><td class="category">Editor</td></tr></table>`,
      ),
      URL,
    );
    assert.doesNotMatch(md, /Nationalteams/);
    assert.match(md, /Operating system/);
  });

  it('drops a teaser box (heading, blurb, button), keeps a long section ending with a button', () => {
    const long = Array.from(
      { length: 3 },
      (_, i) =>
        `<p>Step ${i}: the report explains in detail how the numbers of the survey were collected and checked.</p>`,
    ).join('');
    const md = htmlToMarkdown(
      page(
        `${prose()}<section class="trampoline"><h2>Discover more homes</h2><p>How does the community live? Click through their stories.</p><a class="btn btn-primary" href="/homes">More homes</a></section><section><h2>The method</h2>${long}<a class="button" href="/report.pdf">Download the report</a></section>${prose()}`,
      ),
      URL,
    );
    assert.doesNotMatch(md, /Discover more homes|How does the community live|More homes/);
    assert.match(md, /## The method/);
    assert.match(md, /Download the report/);
  });

  it('keeps a dateline that opens the first sentence, drops one on its own line', () => {
    const md = htmlToMarkdown(
      page(
        `<p><span class="dateline">KOBE – </span>A total of 6,000 surgical masks have been lost at a hospital, it was learned Tuesday, and the police are investigating.</p>${prose()}<p><span class="dateline">Updated at 10:00 by the desk</span></p>`,
      ),
      URL,
    );
    assert.match(md, /KOBE – A total of 6,000 surgical masks/);
    assert.doesNotMatch(md, /Updated at 10:00/);
  });

  it("keeps a recipe card's times, drops a date on its own line", () => {
    const md = htmlToMarkdown(
      page(
        `<p><time datetime="2024-05-03">3 May 2024</time></p>${prose()}<div class="recipe-card"><div class="recipe-times">Prep: <time datetime="PT15M">15 – 30 Min</time></div><ul class="recipe-ingredients"><li>200 g flour</li><li>2 eggs</li></ul></div>`,
      ),
      URL,
    );
    assert.match(md, /15 – 30 Min/);
    assert.doesNotMatch(md, /3 May 2024/);
  });

  it('keeps a date that is part of a sentence', () => {
    const md = htmlToMarkdown(
      page(
        `${prose()}<p>The hearing is set for <time datetime="2024-05-03">3 May</time>, the court said, after a delay.</p>`,
      ),
      URL,
    );
    assert.match(md, /set for 3 May, the court said/);
  });
});

describe('htmlToMarkdown: URLs', () => {
  it('makes relative links and images absolute against the page URL', () => {
    const md = htmlToMarkdown(
      page(`${prose()}<p>See <a href="../other.html">the other story</a> and this
        <img src="/img/a.png" alt="a chart"> for details, the scorer likes commas, yes.</p>`),
      URL,
    );
    assert.match(md, /\[the other story\]\(https:\/\/example\.com\/news\/other\.html\)/);
    assert.match(md, /!\[a chart\]\(https:\/\/example\.com\/img\/a\.png\)/);
  });

  it('resolves against <base href> when present', () => {
    const html = page(
      `${prose()}<p>Read <a href="next.html">the next part</a>, please.</p>`,
    ).replace('<head>', '<head><base href="https://cdn.example.org/base/">');
    assert.match(htmlToMarkdown(html, URL), /\(https:\/\/cdn\.example\.org\/base\/next\.html\)/);
  });

  it('uses the real URL of lazy-loaded images rather than the placeholder', () => {
    const md = htmlToMarkdown(
      page(
        `${prose()}<p><img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg" alt="x"></p>`,
      ),
      URL,
    );
    assert.match(md, /!\[x\]\(https:\/\/example\.com\/real\.jpg\)/);
    assert.doesNotMatch(md, /data:image/);
  });
});

describe('htmlToMarkdown: structure', () => {
  it('turns a data table into a GFM table with a header row and escaped pipes', () => {
    const table = `<table><thead><tr><th>Name</th><th>Value</th></tr></thead>
      <tbody><tr><td>a|b</td><td>1</td></tr><tr><td>c</td><td>2</td></tr></tbody></table>`;
    const md = htmlToMarkdown(page(prose() + table), URL);
    assert.match(md, /\| Name \| Value \|\n\| --- \| --- \|\n\| a\\\|b \| 1 \|\n\| c \| 2 \|/);
  });

  it('fences code and keeps the language from class language-x or lang-x', () => {
    const code = `<pre><code class="language-js">const a = 1;\nif (a) {\n  log(a);\n}</code></pre>
      <pre class="lang-python">print("hi")</pre>`;
    const md = htmlToMarkdown(page(prose() + code), URL);
    assert.match(md, /```js\nconst a = 1;\nif \(a\) \{\n {2}log\(a\);\n\}\n```/);
    assert.match(md, /```python\nprint\("hi"\)\n```/);
  });

  it('keeps only the text of markup inside a code block', () => {
    const code = `<pre><code class="lang-html"><span class="k">if</span> <a href="/x">link</a><br><b>x</b></code></pre>`;
    const md = htmlToMarkdown(page(prose() + code), URL);
    assert.match(md, /```html\nif link\nx\n```/);
  });

  it('keeps a table row on one line when a cell holds a code block', () => {
    const table = `<table><tr><th>Name</th><th>Code</th></tr><tr><td>a</td><td><pre>x = 1\ny = 2</pre></td></tr>
      <tr><td>b</td><td>2</td></tr><tr><td>c</td><td>3</td></tr><tr><td>d</td><td>4</td></tr></table>`;
    const md = htmlToMarkdown(page(prose() + table), URL);
    assert.match(md, /^\| a \| `x = 1 y = 2` \|$/m);
  });

  it('keeps heading levels', () => {
    const md = htmlToMarkdown(
      page(
        `<h2>Second level</h2>${prose(3)}<h3>Third level</h3>${prose(3)}<h4>Fourth</h4><p>x.</p>`,
      ),
      URL,
    );
    assert.match(md, /^## Second level$/m);
    assert.match(md, /^### Third level$/m);
    assert.match(md, /^#### Fourth$/m);
  });

  it('renders nested lists with indentation and ordered numbering', () => {
    const md = htmlToMarkdown(
      page(`${prose()}<ol><li>one<ul><li>inner</li></ul></li><li>two</li></ol>`),
      URL,
    );
    assert.match(md, /^1\. one\n {3}- inner\n2\. two$/m);
  });

  it('keeps MathML as spaced text', () => {
    const md = htmlToMarkdown(
      page(
        `${prose()}<p>The area is <math><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math> in total.</p>`,
      ),
      URL,
    );
    assert.match(md, /The area is π r 2 in total\./);
  });

  it('renders emphasis, inline code and blockquotes', () => {
    const md = htmlToMarkdown(
      page(
        `${prose()}<blockquote><p>He said <strong>no</strong>, <em>twice</em>, via <code>say()</code>.</p></blockquote>`,
      ),
      URL,
    );
    assert.match(md, /^> He said \*\*no\*\*, _twice_, via `say\(\)`\.$/m);
  });
});

describe('htmlToMarkdown: line breaks', () => {
  it('turns one <br> into a hard break and <br><br> into a paragraph break', () => {
    const md = htmlToMarkdown(
      page(
        `${prose()}<p>First line, said the witness<br>second line, she added.<br><br>New paragraph, then.<br></p>`,
      ),
      URL,
    );
    assert.match(
      md,
      /^First line, said the witness {2}\nsecond line, she added\.\n\nNew paragraph, then\.$/m,
    );
    assert.doesNotMatch(md, /^ +$/m);
  });
});

describe('htmlToMarkdown: fallback and robustness', () => {
  it('falls back to the cleaned whole body when extraction finds too little', () => {
    const html = `<html><body><nav><a href="/">Home</a></nav>
      <div><span>Short note.</span></div><div>Opening hours: 9 to 5</div>
      <footer>FOOTERTEXT</footer></body></html>`;
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /Short note\./);
    assert.match(md, /Opening hours: 9 to 5/);
    assert.doesNotMatch(md, /FOOTERTEXT|Home/);
  });

  it('does not throw on empty, binary or malformed input', () => {
    const junk = [
      '',
      '\u0000\u0001\u0002\uFFFD\uD800garbage',
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256)).toString('latin1'),
      '<<<>>><div <p </table></tr><td>x',
      '<html><body><div>'.repeat(5000),
      `${'<div>'.repeat(20000)}deep`,
      '<a href="http://[bad">broken url</a><img src="http://[bad">',
    ];
    for (const input of junk) {
      const md = htmlToMarkdown(input, 'not a url');
      assert.equal(typeof md, 'string');
    }
    assert.equal(htmlToMarkdown('', URL), '');
  });

  it('converts a 2 MB page', () => {
    const big = page(prose(14000));
    assert.ok(big.length > 2_000_000);
    const md = htmlToMarkdown(big, URL);
    assert.match(md, /Paragraph 13999 of the story/);
  });
});
