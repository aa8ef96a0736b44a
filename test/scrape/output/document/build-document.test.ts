import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../../../src/markdown/index.js';
import {
  buildDocument,
  type DocumentInput,
} from '../../../../src/scrape/output/document/build-document.js';
import type { DocumentRequest } from '../../../../src/scrape/types.js';
import { ARTICLE, PAGE_URL, request } from './fixtures.js';

function build(
  overrides: Partial<DocumentRequest>,
  page: Partial<DocumentInput> = {},
): ReturnType<typeof buildDocument> {
  const html = page.html ?? ARTICLE;
  return buildDocument({
    rawHtml: html,
    html,
    pageUrl: PAGE_URL,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    screenshot: null,
    actions: null,
    ...page,
    request: request(overrides),
  });
}

const HIDDEN = /HIDDENATTR|ARIAHIDDEN|DISPLAYNONE|VISIBILITYHIDDEN/;
const NEVER_CONTENT = /NOSCRIPTTEXT|TEMPLATETEXT|SCRIPTTEXT|COMMENTTEXT|window\.tracker|color: red/;
const BOILERPLATE = /NAVHOME|FOOTERTEXT/;

describe('document output: metadata and links read along any parse', () => {
  it('the same whether the converter, a tree or the bare tag stream read the page', () => {
    // markdown alone: the converter's parse; with html or tags: the tree's; neither: a stream
    const viaConverter = build({ markdown: true, links: true });
    const viaTree = build({ markdown: true, html: true, links: true });
    const viaTags = build({ markdown: true, links: true, excludeTags: ['aside'] });
    const viaStream = build({ links: true });
    assert.ok(Object.keys(viaConverter.metadata).length > 3, 'the fixture has metadata');
    assert.ok((viaConverter.links ?? []).length > 3, 'the fixture has links');
    for (const other of [viaTree, viaTags, viaStream]) {
      assert.deepEqual(other.metadata, viaConverter.metadata);
      assert.deepEqual(other.links, viaConverter.links);
    }
  });
});

describe("document output: the page's JSON-LD and microdata in the metadata", () => {
  const PAGE = `<html><head><title>Lamp</title>
<script type="application/ld+json">{"@type":"Product","name":"Lamp"}</script>
<script type="application/ld+json">{"@type": "Product", "name": }</script>
</head><body><main><p>A lamp.</p>
<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">20</span></div>
<aside>ASIDE</aside></main></body></html>`;

  it('whichever parse read the page, and before tags change it; malformed JSON-LD is skipped', () => {
    const expected = {
      jsonLd: [{ '@type': 'Product', name: 'Lamp' }],
      microdata: [{ type: ['https://schema.org/Offer'], properties: { price: ['20'] } }],
    };
    for (const formats of [
      { markdown: true },
      { markdown: true, html: true },
      { html: true, includeTags: ['aside'] },
      { links: true },
    ]) {
      const { metadata } = build(formats, { html: PAGE, rawHtml: PAGE });
      assert.deepEqual(
        { jsonLd: metadata.jsonLd, microdata: metadata.microdata },
        expected,
        JSON.stringify(formats),
      );
    }
  });

  it('a page with none has neither key, and only malformed JSON-LD is no error', () => {
    const broken =
      '<html><head><script type="application/ld+json">{oops</script></head><body><p>x</p></body></html>';
    for (const html of [ARTICLE, broken]) {
      const { metadata } = build({ markdown: true }, { html, rawHtml: html });
      assert.equal('jsonLd' in metadata, false);
      assert.equal('microdata' in metadata, false);
    }
  });
});

describe('document output: each format alone', () => {
  it('markdown alone: the markdown and the metadata, nothing else', () => {
    const doc = build({ markdown: true });
    assert.deepEqual(Object.keys(doc), ['markdown', 'metadata']);
    assert.match(doc.markdown ?? '', /Paragraph 7 of the story/);
  });

  it('html alone: the cleaned page', () => {
    const doc = build({ html: true });
    assert.deepEqual(Object.keys(doc), ['html', 'metadata']);
    assert.match(doc.html ?? '', /<p>Paragraph 0 of the story/);
  });

  it('rawHtml alone: the page exactly as loaded', () => {
    const doc = build({ rawHtml: true });
    assert.deepEqual(Object.keys(doc), ['rawHtml', 'metadata']);
    assert.equal(doc.rawHtml, ARTICLE);
  });

  it('rawHtml is the page before the static blocker, every other format after it', () => {
    // not the h1: the main content puts the title back as the headline
    const blocked = ARTICLE.replace('alt="A photo"', 'alt="after the blocker"');
    const doc = build({ rawHtml: true, html: true }, { rawHtml: ARTICLE, html: blocked });
    assert.equal(doc.rawHtml, ARTICLE);
    assert.doesNotMatch(doc.html ?? '', /A photo/);
    assert.match(doc.html ?? '', /after the blocker/);
  });

  it('links alone: the links of the page', () => {
    const doc = build({ links: true });
    assert.deepEqual(Object.keys(doc), ['links', 'metadata']);
    assert.ok(doc.links?.length);
  });

  it('screenshot alone: base64 with its type read from the bytes', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 4, 5]);
    const shot = { fullPage: false, quality: null, viewport: null };
    const doc = build({ screenshot: shot }, { screenshot: png });
    assert.deepEqual(Object.keys(doc), ['screenshot', 'metadata']);
    assert.deepEqual(doc.screenshot, { contentType: 'image/png', base64: png.toString('base64') });
    const jpg = build({ screenshot: { ...shot, quality: 80 } }, { screenshot: jpeg });
    assert.deepEqual(jpg.screenshot, {
      contentType: 'image/jpeg',
      base64: jpeg.toString('base64'),
    });
  });

  it('all formats together from the one page', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const screenshot = { fullPage: true, quality: null, viewport: null };
    const all = build(
      { markdown: true, html: true, rawHtml: true, links: true, screenshot },
      { screenshot: png },
    );
    assert.deepEqual(Object.keys(all), [
      'markdown',
      'html',
      'rawHtml',
      'links',
      'screenshot',
      'metadata',
    ]);
    assert.equal(all.markdown, build({ markdown: true }).markdown);
    assert.equal(all.html, build({ html: true }).html);
    assert.deepEqual(all.links, build({ links: true }).links);
  });

  it("passes the steps' results through, screenshots as base64", () => {
    const shot = Buffer.from([0xff, 0xd8, 0xff, 9]);
    const doc = build(
      {},
      {
        actions: {
          screenshots: [shot],
          snapshots: [{ url: PAGE_URL, html: '<p>then</p>' }],
          javascriptReturns: [{ type: 'number', value: 42 }],
        },
      },
    );
    assert.deepEqual(doc.actions, {
      screenshots: [{ contentType: 'image/jpeg', base64: shot.toString('base64') }],
      scrapes: [{ url: PAGE_URL, html: '<p>then</p>' }],
      javascriptReturns: [{ type: 'number', value: 42 }],
    });
  });
});

describe('document output: onlyMainContent', () => {
  it('true: the main content only, the same Markdown as the native markdown output', () => {
    const native = build({ markdown: true, removeBase64Images: false }).markdown;
    assert.equal(native, htmlToMarkdown(ARTICLE, PAGE_URL));
    const doc = build({ markdown: true, html: true, onlyMainContent: true });
    assert.doesNotMatch(doc.markdown ?? '', BOILERPLATE);
    assert.doesNotMatch(doc.html ?? '', BOILERPLATE);
    assert.match(doc.html ?? '', /Paragraph 7 of the story/);
  });

  it('false: the whole page, navigation, aside and footer included', () => {
    const doc = build({ markdown: true, html: true, onlyMainContent: false });
    for (const text of [doc.markdown ?? '', doc.html ?? '']) {
      assert.match(text, /NAVHOME/);
      assert.match(text, /ASIDETEXT/);
      assert.match(text, /FOOTERTEXT/);
      assert.match(text, /Paragraph 7 of the story/);
    }
  });

  for (const onlyMainContent of [true, false]) {
    it(`${onlyMainContent}: hidden elements, scripts, styles, templates and comments are gone`, () => {
      const doc = build({ markdown: true, html: true, onlyMainContent });
      for (const text of [doc.markdown ?? '', doc.html ?? '']) {
        assert.doesNotMatch(text, HIDDEN);
        assert.doesNotMatch(text, NEVER_CONTENT);
      }
      assert.doesNotMatch(doc.html ?? '', /<head|<link|<title|<base/);
    });
  }

  it('the whole-page html keeps iframes, with an absolute src', () => {
    const doc = build({ html: true, onlyMainContent: false });
    assert.match(doc.html ?? '', /<iframe src="https:\/\/example\.com\/embed\/video"><\/iframe>/);
  });
});

describe('document output: includeTags and excludeTags', () => {
  it('includeTags keeps only the matching elements, in document order', () => {
    const doc = build({
      html: true,
      markdown: true,
      onlyMainContent: false,
      includeTags: ['footer', 'nav'],
    });
    const html = doc.html ?? '';
    assert.ok(html.indexOf('NAVHOME') < html.indexOf('FOOTERTEXT'), html);
    assert.doesNotMatch(html, /Paragraph 0|ASIDETEXT/);
    assert.match(doc.markdown ?? '', /NAVHOME[\s\S]*FOOTERTEXT/);
    assert.doesNotMatch(doc.markdown ?? '', /Paragraph 0/);
  });

  it('a match inside another match is kept once', () => {
    const doc = build({ html: true, onlyMainContent: false, includeTags: ['article', 'h1'] });
    assert.equal((doc.html ?? '').match(/<h1>/g)?.length, 1);
  });

  it('excludeTags drops the matching elements', () => {
    const doc = build({
      markdown: true,
      html: true,
      onlyMainContent: false,
      excludeTags: ['nav', '.promo', 'p.photo'],
    });
    for (const text of [doc.markdown ?? '', doc.html ?? '']) {
      assert.doesNotMatch(text, /NAVHOME|ASIDETEXT|photo\.jpg/);
      assert.match(text, /FOOTERTEXT/);
    }
  });

  it('tags apply before main-content extraction', () => {
    const main = build({ markdown: true, html: true, excludeTags: ['h1', 'p:nth-of-type(2)'] });
    assert.doesNotMatch(main.markdown ?? '', /# The story|Paragraph 1 of/);
    assert.match(main.markdown ?? '', /Paragraph 0 of/);
    const only = build({ markdown: true, includeTags: ['nav'] });
    assert.doesNotMatch(only.markdown ?? '', /Paragraph/);
  });

  it('an invalid selector matches nothing', () => {
    const doc = build({ html: true, onlyMainContent: false, excludeTags: ['p[', 'nav'] });
    assert.match(doc.html ?? '', /Paragraph 0/);
    assert.doesNotMatch(doc.html ?? '', /NAVHOME/);
    const none = build({ html: true, onlyMainContent: false, includeTags: ['div['] });
    assert.doesNotMatch(none.html ?? '', /Paragraph|NAVHOME|FOOTERTEXT/);
  });

  it('links and metadata come from the whole page whatever the tags', () => {
    const doc = build({ links: true, html: true, includeTags: ['h1'] });
    assert.ok(doc.links?.includes('https://example.com/about'));
    assert.equal(doc.metadata.title, 'The story');
  });
});

describe('document output: URLs and inline images', () => {
  it('makes relative URLs absolute against <base href>', () => {
    const html = build({ html: true, onlyMainContent: false }).html ?? '';
    assert.match(html, /href="https:\/\/example\.com\/news\/related\.html"/);
    assert.match(html, /src="https:\/\/example\.com\/news\/images\/photo\.jpg"/);
    assert.match(html, /href="https:\/\/example\.com\/about"/);
    const main = build({ html: true }).html ?? '';
    assert.match(main, /src="https:\/\/example\.com\/news\/images\/photo\.jpg"/);
  });

  it('links: absolute, http(s) only, once each, in document order, fragments kept', () => {
    const { links } = build({ links: true });
    assert.deepEqual(links, [
      'https://example.com/',
      'https://example.com/about',
      'https://example.com/news/related.html',
      'https://other.example/x?y=1',
    ]);
    const own = build(
      { links: true },
      {
        html: '<a href="page#part">a</a> <a href="#only">b</a> <a href="https://u:p@h.example/">c</a> <a href="http:/x.example/y">d</a> <a href="javascript:void(0)">e</a>',
      },
    ).links;
    assert.deepEqual(own, [
      'https://example.com/news/page#part',
      'https://h.example/',
      'http://x.example/y',
    ]);
  });

  it('removeBase64Images: inline images replaced by the marker in html and markdown', () => {
    const doc = build({ markdown: true, html: true, onlyMainContent: false });
    assert.doesNotMatch(`${doc.html}${doc.markdown}`, /base64/);
    assert.match(doc.html ?? '', /<img src="<Base64-Image-Removed>" alt="inline gif">/);
    assert.match(doc.markdown ?? '', /!\[inline dot\]\(<Base64-Image-Removed>\)/);
  });

  it('removeBase64Images false: inline images stay', () => {
    const doc = build({
      markdown: true,
      html: true,
      onlyMainContent: false,
      removeBase64Images: false,
    });
    assert.match(doc.html ?? '', /src="data:image\/gif;base64,R0lGODlh"/);
    assert.match(doc.markdown ?? '', /!\[inline dot\]\(data:image\/png;base64,iVBORw0KGgo=\)/);
  });
});

describe('document output: pages that are not HTML', () => {
  const all = { markdown: true, html: true, rawHtml: true, links: true };

  it('text/plain is its text in every text format, with the response metadata', () => {
    const text = 'Line one <not a tag>\n# not a heading either\n';
    const doc = build(all, { html: text, rawHtml: text, contentType: 'text/plain', status: 203 });
    assert.equal(doc.markdown, text);
    assert.equal(doc.html, text);
    assert.equal(doc.rawHtml, text);
    assert.deepEqual(doc.links, []);
    assert.deepEqual(doc.metadata, {
      url: PAGE_URL,
      statusCode: 203,
      contentType: 'text/plain',
    });
  });

  it('JSON is its text as is', () => {
    const json = '{"a": [1, 2], "b": "<b>"}';
    const doc = build(all, { html: json, rawHtml: json, contentType: 'application/json' });
    assert.equal(doc.markdown, json);
  });

  it("a rendered text response is unwrapped from Chromium's viewer page", () => {
    const viewer =
      '<html><head><meta name="color-scheme" content="light dark"></head><body><pre style="word-wrap: break-word; white-space: pre-wrap;">{"a":"&lt;1&gt;"}</pre></body></html>';
    const doc = build(all, { html: viewer, rawHtml: viewer, contentType: 'application/json' });
    assert.equal(doc.markdown, '{"a":"<1>"}');
    assert.equal(doc.rawHtml, viewer);
  });

  it('an unknown content type is treated as HTML', () => {
    const doc = build({ markdown: true }, { contentType: null });
    assert.match(doc.markdown ?? '', /Paragraph 0/);
    assert.equal(doc.metadata.contentType, undefined);
  });
});
