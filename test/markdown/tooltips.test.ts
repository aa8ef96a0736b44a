/**
 * A product page's tooltips (tooltips.ts): the help shown beside a specification's label
 * goes, the label and its value stay. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/studio-headphones';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Studio Headphones"}</script>';

const page = (head: string, specs: string) => `<!doctype html><html><head>
  <title>Studio Headphones</title>${head}</head><body>
  <div class="product"><h1>Studio Headphones</h1><p class="price">$199.00</p>
  <p>Open-back studio headphones with large planar drivers, a steel headband with a leather
  strap, and velour pads that stay cool through a long session at the mixing desk.</p>
  <p>Each pair is tuned by hand and measured before it leaves the workshop, and the cables,
  pads and headband can all be replaced, so the headphones last for years.</p>
  <div class="overview">${specs}</div></div></body></html>`;

const spec = (label: string, tip: string, value: string) =>
  `<div class="overview-item"><h4>${label} <tool-tip class="tool-tip"><button>?</button>
  <div class="tool-tip__content">${tip}</div></tool-tip></h4><p>${value}</p></div>`;

const ariaSpec = (label: string, tip: string, value: string) =>
  `<div class="overview-item"><h4>${label} <span role="tooltip">${tip}</span></h4><p>${value}</p></div>`;

const specs =
  spec('Cup style', 'TIPHELP Open designs sound wider but leak sound to the room.', 'Open-back') +
  ariaSpec('Wearing style', 'ARIATIP Over-ear pads surround the ear.', 'Over-ear') +
  spec('Driver type', 'The part of the headphones that moves the air.', 'Planar magnetic') +
  spec('Connectivity', 'How the headphones reach the source.', 'Wired');

describe('tooltips on a product page', () => {
  it('drops the help of a tooltip box and keeps the label and its value', () => {
    const md = htmlToMarkdown(page(product, specs), URL);
    assert.doesNotMatch(md, /TIPHELP|ARIATIP/);
    assert.match(md, /Cup style\s+Open-back/);
    assert.match(md, /Wearing style\s+Over-ear/);
  });

  it('keeps a tooltip class on a page that is not a product', () => {
    const md = htmlToMarkdown(page('', specs), URL);
    assert.match(md, /TIPHELP/);
  });
});
