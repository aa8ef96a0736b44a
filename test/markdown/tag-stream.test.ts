import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { streamTags } from '../../src/markdown/tag-stream.js';

type Event = string;

function viaParser(html: string): Event[] {
  const events: Event[] = [];
  new Parser(
    {
      onopentag: (name, attribs) => events.push(`<${name} ${JSON.stringify(attribs)}`),
      ontext: (text) => events.push(`"${text}`),
      onclosetag: (name) => events.push(`</${name}`),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  ).end(html);
  return events;
}

function viaStream(html: string): Event[] {
  const events: Event[] = [];
  streamTags(html, {
    onopentag: (name, attribs) => events.push(`<${name} ${JSON.stringify(attribs)}`),
    ontext: (text) => events.push(`"${text}`),
    onclosetag: (name) => events.push(`</${name}`),
  });
  return events;
}

const SAMPLES = [
  '<!doctype html><html><head><title>T &amp; t</title></head><body><p>a<p>b</body></html>',
  '<ul><li>one<li>two</ul><dl><dt>x<dd>y</dl><table><tr><td>1<td>2<tr><th>3</table>',
  '<div><p>open</div></p><br/></br><img src=x alt="a&lt;b"><input value=1>',
  '<svg><path d="M0"/><title>t</title></svg><math><mi>x</mi><mo>=</mo></math>',
  '<P CLASS="A" class="b" ID=c>Mixed &#x263A; &copy; &bogus; text</P><!-- c --><![CDATA[x]]>',
  '<select><option>a<option>b<optgroup><option>c</select><script>if (a<b) {}</script>',
  '<div><span><b>unclosed<i>deep</span> stray</x></b> end',
  // attribute names the object's prototype holds: the first of duplicates still wins
  '<p constructor="a" constructor="b" __proto__="c" toString=d hasOwnProperty=e>x</p>',
];

describe('streamTags', () => {
  for (const [i, html] of SAMPLES.entries()) {
    it(`reports what htmlparser2's Parser reports (sample ${i})`, () => {
      assert.deepEqual(viaStream(html), viaParser(html));
    });
  }

  // A million open tags and as many stray closes: linear, this is a fraction of a second; a
  // stack scanned per stray close would be 10^12 steps, caught by the test's timeout.
  it('gets through deep unclosed nesting and stray close tags', { timeout: 60_000 }, () => {
    const n = 1_000_000;
    const html = `${'<div>'.repeat(n)}x${'</span>'.repeat(n)}`;
    let events = 0;
    streamTags(html, { onopentag: () => events++, ontext: () => {}, onclosetag: () => {} });
    assert.equal(events, n);
  });

  // A forum template printed `<![CDATA[` after `<body>` and never closed it: the Tokenizer
  // waited for `]]>` and the page had no text. Browsers end it at the first `>`.
  it('ends a CDATA opener in HTML content at the first >, as browsers do', () => {
    const events = viaStream('<body><![CDATA[\n<div id="top"></div><p>The first post</p></body>');
    assert.ok(events.includes('"The first post'), events.join(' '));
    assert.ok(events.includes('<p {}'));
  });

  it('keeps the text of a script that holds a CDATA opener as written', () => {
    const events = viaStream('<script>//<![CDATA[\nvar a = 1;\n//]]></script><p>after</p>');
    assert.ok(events.includes('"//<![CDATA[\nvar a = 1;\n//]]>'), events.join(' '));
    assert.ok(events.includes('"after'));
  });
});
