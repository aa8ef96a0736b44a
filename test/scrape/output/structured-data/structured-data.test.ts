/**
 * A page's own structured data, the expected JSON written by hand: JSON-LD (arrays, comment
 * wrappers, malformed blocks skipped), microdata (nested items, itemref, URL values) and
 * OpenGraph / Twitter cards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { structuredData } from '../../../../src/scrape/output/structured-data/index.js';

const PAGE = `<!doctype html><html><head><base href="https://shop.example/base/">
<meta property="og:title" content="Lamp">
<meta property="og:image" content="https://shop.example/1.png">
<meta property="og:image" content="https://shop.example/2.png">
<meta property="article:published_time" content="2026-01-02">
<meta name="twitter:card" content="summary_large_image">
<meta property="twitter:site" content="@shop">
<meta name="description" content="not a card">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Lamp"}</script>
<script type="application/ld+json">{"@type": "Broken", "name": "trailing comma",}</script>
<script type="Application/LD+JSON; charset=utf-8"><!--
[{"@type":"BreadcrumbList"}, "not an object", {"@type":"Organization","name":"Shop"}]
//--></script>
<script type="application/ld+json"></script>
<script type="application/json">{"@type":"NotLinkedData"}</script>
</head><body>
<div itemscope itemtype="https://schema.org/Product" itemid="/p/1" itemref="extra">
  <span itemprop="name">Desk
     lamp</span>
  <img itemprop="image" src="lamp.png" alt="">
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <meta itemprop="priceCurrency" content="EUR"><data itemprop="price" value="20">twenty</data>
    <time itemprop="validFrom" datetime="2026-01-01">New Year</time>
  </div>
  <a itemprop="url sameAs" href="/p/1">link</a>
</div>
<p id="extra" itemprop="description">Warm light.</p>
<div itemscope><span itemprop="loop" itemscope itemref="self"><b id="self" itemprop="x">y</b></span></div>
</body></html>`;

describe('structuredData', () => {
  const data = structuredData(PAGE, 'https://shop.example/p/1');

  it('every JSON-LD object, malformed blocks skipped', () => {
    assert.deepEqual(data.jsonLd, [
      { '@context': 'https://schema.org', '@type': 'Product', name: 'Lamp' },
      { '@type': 'BreadcrumbList' },
      { '@type': 'Organization', name: 'Shop' },
    ]);
  });

  it('microdata items as WHATWG converts them to JSON', () => {
    assert.deepEqual(data.microdata, [
      {
        type: ['https://schema.org/Product'],
        id: 'https://shop.example/p/1',
        properties: {
          name: ['Desk lamp'],
          image: ['https://shop.example/base/lamp.png'],
          offers: [
            {
              type: ['https://schema.org/Offer'],
              properties: {
                priceCurrency: ['EUR'],
                price: ['20'],
                validFrom: ['2026-01-01'],
              },
            },
          ],
          url: ['https://shop.example/p/1'],
          sameAs: ['https://shop.example/p/1'],
          description: ['Warm light.'],
        },
      },
      {
        properties: { loop: [{ properties: { x: ['y'] } }] },
      },
    ]);
  });

  it('OpenGraph and Twitter cards keyed as written, repeats as lists', () => {
    assert.deepEqual(data.openGraph, {
      'og:title': 'Lamp',
      'og:image': ['https://shop.example/1.png', 'https://shop.example/2.png'],
      'article:published_time': '2026-01-02',
    });
    assert.deepEqual(data.twitter, {
      'twitter:card': 'summary_large_image',
      'twitter:site': '@shop',
    });
  });

  it('a page without any is four empty answers', () => {
    assert.deepEqual(structuredData('<p>plain</p>', 'https://x.example/'), {
      jsonLd: [],
      microdata: [],
      openGraph: {},
      twitter: {},
    });
  });
});
