/**
 * discardNamedBoilerplate: blocks named as boilerplate go when each is a small part of the
 * article, unless one name labels most of the article's prose (a template naming its own
 * text blocks); link-dense blocks of one name (a menu, a footer's columns) still go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discardNamedBoilerplate } from '../../src/markdown/discard.js';
import { type ElementNode, findFirst, parseDocument } from '../../src/markdown/dom.js';
import { innerText } from '../../src/markdown/measure.js';

const article = (html: string): ElementNode =>
  findFirst(
    parseDocument(`<html><body><div id="a">${html}</div></body></html>`).root,
    'div',
  ) as ElementNode;

const PROSE =
  'The case charges the earphones four times over and fits in a pocket, with a speaker that plays a sound to find it. ';

describe('discardNamedBoilerplate', () => {
  it('keeps sections that one boilerplate name labels when together they are most of the prose', () => {
    const sections = [1, 2, 3, 4]
      .map((n) => `<div class="product-stories-header s${n}"><p>Section ${n}. ${PROSE}</p></div>`)
      .join('');
    const el = article(`<h1>Earphones</h1>${sections}<div class="share-bar">Share</div>`);
    discardNamedBoilerplate(el, 0.4);
    const text = innerText(el);
    assert.match(text, /Section 1\./);
    assert.match(text, /Section 4\./);
    assert.doesNotMatch(text, /Share/);
  });

  it('keeps the blocks of that name inside them, however little each holds', () => {
    const sections = [1, 2, 3, 4]
      .map(
        (n) =>
          `<div class="product-stories-header s${n}"><p>${PROSE}</p>` +
          `<div class="product-stories-copy"><p>Copy ${n}.</p></div></div>`,
      )
      .join('');
    const el = article(`<h1>Earphones</h1>${sections}`);
    discardNamedBoilerplate(el, 0.4);
    assert.match(innerText(el), /Copy 1\./);
    assert.match(innerText(el), /Copy 4\./);
  });

  it('still drops link-dense blocks of one name that hold most of the text', () => {
    const links = Array.from(
      { length: 8 },
      (_, n) => `<a href="/p${n}">Another product ${n}</a>`,
    ).join(' ');
    const columns = [1, 2, 3].map((n) => `<div class="footer-col c${n}">${links}</div>`).join('');
    const el = article(`<p>${PROSE}</p>${columns}`);
    discardNamedBoilerplate(el, 0.4);
    assert.doesNotMatch(innerText(el), /Another product/);
  });

  it('drops a lone named block under the share', () => {
    const el = article(
      `<p>${PROSE.repeat(3)}</p><div class="product-stories-header"><p>${PROSE}</p></div>`,
    );
    discardNamedBoilerplate(el, 0.4);
    assert.equal((innerText(el).match(/case charges/g) ?? []).length, 3);
  });
});
