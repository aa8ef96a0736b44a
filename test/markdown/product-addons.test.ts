/**
 * A product's add-ons (product-addons.ts): a priced grid of a collection's length whose cards
 * are named after the schema.org Product ("<name> - <pack>"), set in a cart form, is the
 * product's: the page stays a product page and the add-ons' names stay. A grid whose cards
 * only share the product's leading words is still other products. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://store.example.com/app/1/sky-fleet/';

const rows = (prefix: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<a class="dlc_row" href="/app/${i + 2}/"><div class="dlc_name">${prefix} Pack ${i + 1}</div>` +
      `<div class="dlc_price">${i + 4},99€</div><input type="hidden" name="subid[]" value="${i}"></a>`,
  ).join('');

const page = (prefix: string) => `<!doctype html><html><head><title>Sky Fleet on the Store</title>
  </head><body><div itemscope itemtype="http://schema.org/Product">
  <div class="crumbs"><a href="/"><span itemprop="name">Sky Fleet</span></a></div>
  <div class="page_title" role="heading" aria-level="1">Sky Fleet</div>
  <div class="left_column"><div class="dlc_section"><h2>Content for this game</h2>
  <form name="add_all_to_cart" action="/cart/" method="POST"><input type="hidden" name="action" value="add">
  <div class="rows">${rows(prefix, 5)}</div>
  <div class="rows" style="display: none;">${rows(`${prefix} Extra`, 13)}</div></form></div>
  <h2>About this game</h2>
  <p>DESCRIBED Sky Fleet is a free-to-play battle game of aircraft, ships and tanks from the
  early twentieth century to the present day, fought over a hundred maps in every season.</p>
  <p>Players build their fleets from historical documents and surviving machines, join
  squadrons with friends and climb through the ranks in battles that last a quarter hour.</p>
  <p>Regular updates bring new vehicles, maps, missions and nations, and a workshop lets the
  community build its own content and share it with every other player in the world.</p>
  </div></div></body></html>`;

describe('product add-ons', () => {
  it('keeps the names of a grid named after the product, shown and out of its cart form', () => {
    const md = htmlToMarkdown(page('Sky Fleet -'), URL);
    assert.match(md, /DESCRIBED/);
    assert.match(md, /Sky Fleet - Pack 1\b/);
    assert.match(md, /Sky Fleet - Extra Pack 13\b/);
    assert.doesNotMatch(md, /4,99€/);
  });

  it('does not keep a grid whose cards only share the product name without a separator', () => {
    const md = htmlToMarkdown(page('Sky Fleetwood'), URL);
    assert.doesNotMatch(md, /Sky Fleetwood Extra Pack 13/);
  });
});
