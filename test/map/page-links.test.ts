/** What a map takes from the start page (page-links.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageFactsOf } from '../../src/map/page-links.js';

describe('pageFactsOf', async () => {
  it('resolves anchors and areas against the page, http(s) only', async () => {
    const html = `<a href="/a">A</a><a href="b?x=1#f">B</a><area href="https://other.test/c">
<a href="mailto:x@e.com">m</a><a href="javascript:void 0">j</a><a>no href</a><a href="  /d  ">D</a>`;
    assert.deepEqual((await pageFactsOf(html, 'https://e.com/dir/page')).links, [
      'https://e.com/a',
      'https://e.com/dir/b?x=1#f',
      'https://other.test/c',
      'https://e.com/d',
    ]);
  });

  it('resolves against <base href>', async () => {
    const html = '<head><base href="https://cdn.e.com/root/"></head><a href="x">x</a>';
    assert.deepEqual((await pageFactsOf(html, 'https://e.com/')).links, [
      'https://cdn.e.com/root/x',
    ]);
  });

  it('takes the title and the meta description, entities decoded, whitespace folded', async () => {
    const html = `<head><title>
  Caf&eacute;   &amp; bar </title><meta name="Description" content="Open late"></head>
<body><svg><title>an icon</title></svg></body>`;
    const facts = await pageFactsOf(html, 'https://e.com/');
    assert.equal(facts.title, 'Café & bar');
    assert.equal(facts.description, 'Open late');
  });

  it('falls back to Open Graph, and leaves out what is missing', async () => {
    const og =
      '<meta property="og:title" content="OG"><meta property="og:description" content="D">';
    assert.deepEqual(await pageFactsOf(og, 'https://e.com/'), {
      links: [],
      title: 'OG',
      description: 'D',
    });
    assert.deepEqual(await pageFactsOf('<p>nothing</p>', 'https://e.com/'), { links: [] });
  });

  it('ignores a title inside an svg', async () => {
    assert.equal(
      (await pageFactsOf('<svg><title>icon</title></svg>', 'https://e.com/')).title,
      undefined,
    );
  });
});
