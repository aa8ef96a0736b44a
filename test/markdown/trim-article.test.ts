/**
 * trimArticle's walk asks every block whether it is a short line of metadata (a dateline,
 * a caption, a byline): the answer needs the block's text only up to the limit, so a page of
 * nested blocks costs a walk over its nodes, not one over each block's whole subtree. Pure
 * logic on a tree parsed for the test; the text reads are counted on the tree's own nodes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ElementNode, findFirst, type Node, parseDocument } from '../../src/markdown/dom.js';
import { innerText, textLength, textLengthUpTo } from '../../src/markdown/measure.js';
import { trimArticle } from '../../src/markdown/trim-article.js';

const body = (html: string): ElementNode =>
  findFirst(parseDocument(`<html><body>${html}</body></html>`).root, 'body') as ElementNode;

/** Counts every read of a text node's string below `el`. */
function countTextReads(el: ElementNode): { reads: number } {
  const counter = { reads: 0 };
  const visit = (node: Node): void => {
    if (node.type === 'element') {
      for (const child of node.children) visit(child);
      return;
    }
    let text = node.text;
    Object.defineProperty(node, 'text', {
      get() {
        counter.reads++;
        return text;
      },
      set(value: string) {
        text = value;
      },
    });
  };
  visit(el);
  return counter;
}

const SENTENCE =
  'The council met on Tuesday and agreed the budget for the coming year after a long debate about roads, schools and the harbour. ';

describe('trimArticle', () => {
  it('reads a page of deeply nested blocks in time linear in its nodes', () => {
    const depth = 150;
    const html = `${'<div><p>'.concat(SENTENCE, '</p>').repeat(depth)}${'</div>'.repeat(depth)}`;
    const article = body(html);
    // the figures of each string are taken once by a first measure, as the extraction does
    assert.equal(textLength(article), depth * SENTENCE.trim().length + depth - 1);
    const counter = countTextReads(article);
    trimArticle(article);
    // every paragraph is kept: none is a line of metadata
    assert.equal(innerText(article).split('The council').length - 1, depth);
    // a full count of every nested block reads depth²/2 strings (11,250 here)
    assert.ok(counter.reads < 20 * depth, `${counter.reads} reads for ${depth} text nodes`);
  });
});

describe('textLengthUpTo', () => {
  it('equals textLength under the cap and reaches the cap otherwise', () => {
    const tree = body('<div> <p>alpha  beta</p><span>gamma</span> <b> </b><i>delta</i></div>');
    const full = textLength(tree);
    assert.equal(full, 'alpha betagamma delta'.length);
    assert.equal(textLengthUpTo(tree, full + 1), full);
    for (let cap = 1; cap <= full; cap++) assert.ok(textLengthUpTo(tree, cap) >= cap);
  });
});
