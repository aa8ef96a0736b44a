import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamTags } from '../../../../src/markdown/index.js';
import { pageMetadata } from '../../../../src/scrape/output/document/metadata.js';
import { baseOf, PageFacts } from '../../../../src/scrape/output/document/page-facts.js';

const URL = 'https://example.com/blog/post';

function metadataOf(html: string) {
  const facts = new PageFacts();
  streamTags(html, facts);
  return pageMetadata(facts, baseOf(facts, URL));
}

const RICH_HEAD = `<!doctype html><html lang="de-AT"><head>
  <title>
    Rich &amp; head
  </title>
  <meta name="description" content="First description">
  <meta name="description" content="second one">
  <meta name="keywords" content="alpha, beta">
  <meta name="robots" content="noindex, nofollow">
  <meta property="og:title" content="OG title">
  <meta property="og:description" content="OG description">
  <meta property="og:url" content="https://example.com/canonical">
  <meta property="og:image" content="https://cdn.example.com/a.png">
  <meta property="og:image" content="https://cdn.example.com/b.png">
  <meta property="og:locale" content="de_AT">
  <meta property="og:locale:alternate" content="en_GB">
  <meta property="og:locale:alternate" content="fr_FR">
  <meta property="og:site_name" content="The Site">
  <meta property="og:type" content="article">
  <meta property="article:published_time" content="2024-05-03T10:00:00Z">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:title" content="Twitter title">
  <meta name="twitter:site" content="@site">
  <meta itemprop="author" content="Ann Author">
  <meta name="dc.subject" content="Harbours">
  <meta name="__proto__" content="not a prototype">
  <meta name="no-content">
  <link rel="apple-touch-icon" href="/touch.png">
  <link rel="icon" href="/favicon-32.png">
</head><body><p>Body</p></body></html>`;

describe('page metadata (Firecrawl names)', () => {
  const m = metadataOf(RICH_HEAD);

  it('reads title, language, description, keywords and robots', () => {
    assert.equal(m.title, 'Rich & head');
    assert.equal(m.language, 'de-AT');
    assert.equal(m.description, 'First description, second one');
    assert.equal(m.keywords, 'alpha, beta');
    assert.equal(m.robots, 'noindex, nofollow');
  });

  it('gives the Open Graph fields both camel-cased and under their own names', () => {
    assert.equal(m.ogTitle, 'OG title');
    assert.equal(m.ogDescription, 'OG description');
    assert.equal(m.ogUrl, 'https://example.com/canonical');
    assert.equal(m.ogImage, 'https://cdn.example.com/a.png');
    assert.equal(m.ogLocale, 'de_AT');
    assert.deepEqual(m.ogLocaleAlternate, ['en_GB', 'fr_FR']);
    assert.equal(m.ogSiteName, 'The Site');
    assert.equal(m.publishedTime, '2024-05-03T10:00:00Z');
    assert.equal(m['og:title'], 'OG title');
    assert.equal(m['og:type'], 'article');
  });

  it('a meta met twice becomes a list', () => {
    assert.deepEqual(m['og:image'], [
      'https://cdn.example.com/a.png',
      'https://cdn.example.com/b.png',
    ]);
  });

  it('copies Twitter, itemprop and Dublin Core metas by their names', () => {
    assert.equal(m['twitter:card'], 'summary_large_image');
    assert.equal(m['twitter:title'], 'Twitter title');
    assert.equal(m['twitter:site'], '@site');
    assert.equal(m.author, 'Ann Author');
    assert.equal(m.dcSubject, 'Harbours');
    assert.equal(m['dc.subject'], 'Harbours');
  });

  it('keeps a page-chosen name such as __proto__ as a plain key', () => {
    assert.equal(Object.getPrototypeOf(m), Object.prototype);
    assert.ok(Object.hasOwn(m, '__proto__'));
    assert.match(JSON.stringify(m), /"__proto__":"not a prototype"/);
    assert.equal(m['no-content'], undefined);
  });

  it('favicon: rel="icon" first, absolute', () => {
    assert.equal(m.favicon, 'https://example.com/favicon-32.png');
  });
});

describe('page metadata: fallbacks', () => {
  it('any rel containing "icon" when there is no rel="icon", against <base>', () => {
    const m = metadataOf(
      '<html><head><base href="https://static.example.com/s/"><link rel="shortcut icon" href="fav.ico"></head></html>',
    );
    assert.equal(m.favicon, 'https://static.example.com/s/fav.ico');
  });

  it('no favicon field when the page names none', () => {
    assert.equal(metadataOf('<html><head><title>t</title></head></html>').favicon, undefined);
  });

  it('the title falls back to og:title, then twitter:title', () => {
    assert.equal(
      metadataOf(
        '<head><meta name="twitter:title" content="TW"><meta property="og:title" content="OG"></head>',
      ).title,
      'OG',
    );
    assert.equal(metadataOf('<head><meta name="twitter:title" content="TW"></head>').title, 'TW');
    assert.equal(metadataOf('<p>nothing</p>').title, undefined);
  });

  it('a <meta name="title"> does not replace the <title>', () => {
    const m = metadataOf('<head><title>Real</title><meta name="title" content="Meta"></head>');
    assert.equal(m.title, 'Real');
  });
});
