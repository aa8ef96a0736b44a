import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyMergePatch } from '../../src/workflows/merge-patch.js';

// RFC 7396, Appendix A: every example, target + patch → result.
const examples: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

test('applies every example of RFC 7396 appendix A', () => {
  for (const [target, patch, result] of examples) {
    assert.deepEqual(applyMergePatch(target, patch), result, JSON.stringify({ target, patch }));
  }
});

test('leaves the target and the patch unchanged', () => {
  const target = { a: { b: 1 }, c: [1] };
  const patch = { a: { b: null, d: 2 } };
  applyMergePatch(target, patch);
  assert.deepEqual(target, { a: { b: 1 }, c: [1] });
  assert.deepEqual(patch, { a: { b: null, d: 2 } });
});

test('a __proto__ key becomes a plain field, never the prototype', () => {
  const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
  const result = applyMergePatch({}, patch) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(Object.keys(result), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
