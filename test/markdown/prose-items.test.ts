/**
 * Prose list items (scorable.ts): the laxest extraction pass, run when the stricter ones
 * found too little in paragraphs, also scores the list items written as sentences (an FAQ
 * answered in steps, which a grid of short linked blurbs beside it would otherwise outscore
 * with its paragraphs); the stricter passes, and short or linked items, do not.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ElementNode, findFirst, parseDocument } from '../../src/markdown/dom.js';
import { collectScorable, type ExtractFlags } from '../../src/markdown/scorable.js';

const step =
  'Secure your bike to a solid, immovable object, and check that nobody can lift the bike over it or take the object apart.';
const html = `<html><body><div class="answer"><p>Make your bike hard to steal:</p><ol>
  <li id="step">${step}</li>
  <li id="short">Use two locks.</li>
  <li id="linked"><a href="/locks">${step}</a></li>
</ol></div></body></html>`;

const scoredItems = (flags: ExtractFlags): string[] => {
  const body = findFirst(parseDocument(html).root, 'body') as ElementNode;
  return collectScorable(body, 'Bike locks', flags)
    .filter((el) => el.tag === 'li')
    .map((el) => el.attrs.id ?? '');
};

describe('prose list items', () => {
  it('are scored by the laxest pass only', () => {
    const lax = { stripUnlikely: false, weightClasses: false, cleanConditionally: false };
    assert.deepEqual(scoredItems(lax), ['step']);
    assert.deepEqual(scoredItems({ ...lax, cleanConditionally: true }), []);
    assert.deepEqual(
      scoredItems({ stripUnlikely: true, weightClasses: true, cleanConditionally: true }),
      [],
    );
  });
});
