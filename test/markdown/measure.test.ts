/**
 * The extractor's text measures (measure.ts, tree-stats.ts) take each text node's string
 * once: every later measure of an ancestor, in any pass or copy of the tree, is a walk over
 * nodes. Also the recipe mark (prepare-article.ts), read once per attributes object, and
 * Readability's class weight (`overflow-hidden` is layout, not chrome). Pure
 * logic on trees parsed for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneElement } from '../../src/markdown/clone.js';
import {
  type ElementNode,
  findFirst,
  parseDocument,
  type TextNode,
} from '../../src/markdown/dom.js';
import { classWeight, innerText, textLength } from '../../src/markdown/measure.js';
import { insideRecipe } from '../../src/markdown/prepare-article.js';
import { TreeStats } from '../../src/markdown/tree-stats.js';

const body = (html: string): ElementNode =>
  findFirst(parseDocument(`<html><body>${html}</body></html>`).root, 'body') as ElementNode;

function textNodes(el: ElementNode, out: TextNode[] = []): TextNode[] {
  for (const c of el.children) {
    if (c.type === 'text') out.push(c);
    else textNodes(c, out);
  }
  return out;
}

const TRICKY = `<div>  <p> One,\u00a0two\t</p><span>three</span>  <b> </b><i>four ,</i>
  <p>\u3000five、six\n\n</p> </div>`;

describe('text measures', () => {
  it('count as innerText collapses whitespace, and TreeStats agrees', () => {
    const tree = body(TRICKY);
    const expected = innerText(tree).length;
    assert.equal(textLength(tree), expected);
    assert.equal(textLength(tree), expected, 'measured again from the kept figures');
    const stats = new TreeStats().of(tree);
    assert.equal(stats.length, expected);
    assert.equal(stats.commas, 3);
  });

  it('read a text node once: a second measure uses the figures kept with its string', () => {
    const tree = body('<p>alpha beta</p> <p>gamma</p>');
    assert.equal(textLength(tree), 'alpha beta gamma'.length);
    const [first] = textNodes(tree);
    assert.ok(first?.measured, 'the figures are kept on the node');
    assert.equal(first.measured.of, first.text);
    // figures that no scan of the string would give: only the kept ones can be used
    first.measured.length = 100;
    assert.equal(textLength(tree), 100 + 1 + 'gamma'.length);
    assert.equal(new TreeStats().of(tree).length, 100 + 1 + 'gamma'.length);
  });

  it('measure a text node again once its string is another', () => {
    const tree = body('<p>alpha</p>');
    assert.equal(textLength(tree), 5);
    const [node] = textNodes(tree);
    (node as TextNode).text = 'alpha and omega';
    assert.equal(textLength(tree), 'alpha and omega'.length);
  });

  it('are shared with a copy of the tree (a retry measures no string again)', () => {
    const tree = body('<div><p>alpha beta</p></div>');
    textLength(tree);
    const copy = cloneElement(tree);
    const [original] = textNodes(tree);
    const [copied] = textNodes(copy);
    assert.notEqual(copied, original);
    assert.ok(copied?.measured, 'the copy holds the figures');
    assert.equal(copied.measured, original?.measured);
  });
});

describe('innerText', () => {
  it('collapses a lone text node once: a later ask, in a copy too, reads the kept string', () => {
    const tree = body('<div><p><a>  alpha \n beta </a></p></div>');
    assert.equal(innerText(tree), 'alpha beta');
    const [node] = textNodes(tree);
    assert.equal(node?.measured?.collapsed, 'alpha beta', 'kept with the figures');
    // a string no collapse of the text would give: only the kept one can be answered
    (node?.measured as { collapsed: string }).collapsed = 'kept';
    assert.equal(innerText(tree), 'kept');
    assert.equal(innerText(cloneElement(tree)), 'kept', 'copies share the kept string');
  });

  it('collapses a text node again once its string is another', () => {
    const tree = body('<p>alpha</p>');
    assert.equal(innerText(tree), 'alpha');
    const [node] = textNodes(tree);
    (node as TextNode).text = ' omega  and\talpha ';
    assert.equal(innerText(tree), 'omega and alpha');
  });

  it('joins several text nodes before collapsing, as before', () => {
    assert.equal(innerText(body('<p> one <b>two</b>three </p>')), 'one twothree');
  });
});

describe('recipe marks', () => {
  it('are read once per attributes object, however many descendants ask', () => {
    let reads = 0;
    const attrs = new Proxy({ class: 'recipe-card' } as Record<string, string>, {
      get(target, key: string) {
        reads++;
        return target[key];
      },
    });
    const card: ElementNode = { type: 'element', tag: 'div', attrs, children: [], parent: null };
    const items = Array.from({ length: 5 }, (): ElementNode => {
      const li: ElementNode = { type: 'element', tag: 'li', attrs: {}, children: [], parent: card };
      card.children.push(li);
      return li;
    });
    for (const li of items) assert.equal(insideRecipe(li), true);
    const afterFirstPass = reads;
    for (const li of items) assert.equal(insideRecipe(cloneElement(li, card)), true);
    assert.equal(reads, afterFirstPass, 'no read after the first answer');
    assert.ok(afterFirstPass <= 3, `read ${afterFirstPass} times`);
  });
});

describe('class weight', () => {
  const weigh = (cls: string) => {
    const el = findFirst(body(`<div class="${cls}"><p>Text</p></div>`), 'div');
    assert.ok(el);
    return classWeight(el);
  };

  it('weighs a block hidden by its class as chrome', () => {
    assert.equal(weigh('panel hidden-xs'), -25);
    assert.equal(weigh('is-hidden'), -25);
  });

  it('does not weigh a box that clips its overflow as hidden', () => {
    assert.equal(weigh('data-[state=open]:animate-accordion-down overflow-hidden'), 0);
    assert.equal(weigh('rounded overflow-x-hidden'), 0);
    assert.equal(weigh('overflow-hidden sidebar'), -25);
  });
});
