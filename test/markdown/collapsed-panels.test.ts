/**
 * Collapsed panels on every page (product-blocks.ts openPanels, called from index.ts): a
 * hidden element whose id a toggle names in `aria-controls` is text folded away, not
 * chrome; a button that is a heading's text (an accordion's title) stays, as does a button
 * that with the panel of prose after it is all its block holds (a FAQ's question). Pages
 * written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://plumber.example.com/services/boilers';

const intro = `<p>We install, service and repair gas boilers across the county, with a fixed
  price agreed before any work starts and a two-year guarantee on every repair we carry out.</p>
  <p>Our engineers are registered, carry their own parts and arrive within a two-hour window
  that we confirm by text on the morning of the visit.</p>`;

const question = (i: number, attrs: string) => `<div class="faq">
  <h3><button aria-expanded="false" aria-controls="answer-${i}">Question ${i}</button></h3>
  <div id="answer-${i}" ${attrs}><p>Answer number ${i}: a boiler service takes about an hour,
  and the engineer checks the flue, the pressure and the seals before signing it off.</p></div>
  </div>`;

const page = (attrs: string) => `<!doctype html><html><head><title>Boilers</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/services">Services</a></nav></header>
  <main><h1>Boiler services</h1>${intro}
  <section class="faqs">${[1, 2, 3].map((i) => question(i, attrs)).join('')}</section></main>
  <footer><p>Plumber Ltd</p></footer></body></html>`;

describe('collapsed panels', () => {
  it('keeps the answers an accordion hides with aria-hidden', () => {
    const md = htmlToMarkdown(page('aria-hidden="true"'), URL);
    for (const i of [1, 2, 3]) assert.match(md, new RegExp(`Answer number ${i}`));
  });

  it('keeps the answers an accordion hides with the hidden attribute', () => {
    const md = htmlToMarkdown(page('hidden'), URL);
    assert.match(md, /Answer number 2/);
  });

  it('drops a hidden block no toggle names', () => {
    const html = page('aria-hidden="true"').replace(/aria-controls="answer-\d"/g, '');
    assert.doesNotMatch(htmlToMarkdown(html, URL), /Answer number/);
  });
});

describe('accordion titles', () => {
  it("keeps a section's title written as the button in its heading", () => {
    const md = htmlToMarkdown(page('aria-hidden="true"'), URL);
    assert.match(md, /### Question 2/);
  });

  it('drops a button outside a heading', () => {
    const html = page('').replace(
      '<h1>Boiler services</h1>',
      '<h1>Boiler services</h1><button>Call us now</button>',
    );
    assert.doesNotMatch(htmlToMarkdown(html, URL), /Call us now/);
  });

  it("keeps a FAQ's question written as a button without a heading, before its answer", () => {
    // a script's accordion: each item is the button and the panel of prose it folds
    const html = page('')
      .replace(
        /<h3><button aria-expanded="false" aria-controls="answer-(\d)">/g,
        '<button class="toggle"><span>Is this question $1 asked?</span>',
      )
      .replace(/<\/button><\/h3>/g, '</button>');
    const md = htmlToMarkdown(html, URL);
    assert.match(md, /Is this question 2 asked\?/);
    assert.ok(md.indexOf('question 2 asked') < md.indexOf('Answer number 2'));
  });

  it('drops a button beside a list of links (a menu)', () => {
    const menu = `<div class="menu"><button>Browse the shop</button><ul>${['Boilers', 'Radiators', 'Pumps', 'Valves'].map((w) => `<li><a href="/${w}">${w} for every home and budget</a></li>`).join('')}</ul></div>`;
    const html = page('').replace('<h1>Boiler services</h1>', `<h1>Boiler services</h1>${menu}`);
    assert.doesNotMatch(htmlToMarkdown(html, URL), /Browse the shop/);
  });
});
