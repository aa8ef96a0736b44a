/**
 * A product page's tab set written without ARIA (sibling-tab-panels.ts): the hidden sibling panels
 * of a shown one, of the same tag and class, open; a short hidden sibling and a page that is
 * not a product keep them hidden. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/kettle-42';

const jsonLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle 42"}</script>`;

const overview = `<p>A stainless steel kettle that boils a litre in under three minutes, with a
  concealed element, a limescale filter you can take out and wash, and a base that turns all
  the way round so the cord never gets in the way.</p>
  <p>The double wall keeps the outside cool to the touch, and the lid opens with one press of
  a button on the handle, so you can fill it with one hand.</p>`;

const specs = `<h3>Materials and care</h3>
  <p>The body is brushed stainless steel and the handle and lid are BPA-free plastic; wipe it
  with a damp cloth, and descale it every month with the filter taken out.</p>
  <p>Power: 2200 W on a 230 V supply, with boil-dry protection and an automatic switch-off
  once the water boils or the kettle is lifted from its base.</p>`;

const page = (head: string, hiddenPane: string) => `<!doctype html><html><head>
  <title>Kettle 42</title>${head}</head><body>
  <header><nav><a href="/">Shop</a> <a href="/kettles">Kettles</a></nav></header>
  <div class="product"><h1>Kettle 42</h1><p class="price">€49.00</p>
    <div class="tab-navs"><div class="tab-nav active">Overview</div><div class="tab-nav">Specs</div></div>
    <div class="tab-panes">
      <div class="tab-pane" style="display:block">${overview}</div>
      <div class="tab-pane" style="display:none">${hiddenPane}</div>
    </div></div>
  <footer><p>Shop Ltd</p></footer></body></html>`;

describe('tab panels without ARIA', () => {
  it('opens the hidden panels beside the shown one on a product page', () => {
    const md = htmlToMarkdown(page(jsonLd, specs), URL);
    assert.match(md, /limescale filter/);
    assert.match(md, /boil-dry protection/);
  });

  it('keeps a short hidden sibling hidden', () => {
    const md = htmlToMarkdown(page(jsonLd, '<p>Sold out in blue</p>'), URL);
    assert.match(md, /limescale filter/);
    assert.doesNotMatch(md, /Sold out in blue/);
  });

  it('keeps the panels hidden on a page that is not a product', () => {
    const md = htmlToMarkdown(page('', specs), URL);
    assert.doesNotMatch(md, /boil-dry protection/);
  });
});
