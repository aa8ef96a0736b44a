/**
 * A publisher's legal notice in a product page's content (legal-notices.ts): the block of
 * fine print that carries a copyright sign goes. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/app/harbour-lights';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Harbour Lights"}</script>';

const page = (head: string) => `<!doctype html><html><head>
  <title>Harbour Lights</title>${head}</head><body>
  <div class="game"><h1>Harbour Lights</h1><p class="price">$19.99</p>
  <div class="about"><h2>About this game</h2>
  <p>Keep the lighthouse burning through the long winter: trade with the fishing boats, repair
  the lamp before each storm and guide the ferry home through the fog, night after night.</p>
  <p>Every season brings new weather, new ships and new trouble on the rocks below the light,
  and the keeper's journal remembers every choice you made along the way.</p></div>
  <div class="fine-print"><p>LICENCE Use of the game is subject to the licence terms shown at
  the first start; online features need an account.</p>
  <p>© 2019—2026 Northlight Studio. All trademarks are the property of their owners.</p></div>
  </div></body></html>`;

describe('legal notices on a product page', () => {
  it('drops the block of fine print that carries a copyright sign', () => {
    const md = htmlToMarkdown(page(product), URL);
    assert.doesNotMatch(md, /LICENCE|Northlight/);
    assert.match(md, /guide the ferry home/);
  });

  it('keeps a copyright sign without a year, a mark inside the description', () => {
    const marked = page(product).replace('guide the ferry home', 'guide the Ferryman © ferry home');
    const md = htmlToMarkdown(marked, URL);
    assert.match(md, /Ferryman © ferry home/);
  });
});
