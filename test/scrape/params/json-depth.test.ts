/** The depth bound on a caller's JSON: counted without recursion, objects and arrays alike. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeperThan } from '../../../src/scrape/params/json-depth.js';

const nested = (levels: number, wrap: (inner: unknown) => unknown) => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
};

test('scalars and flat values nest no level deeper than zero', () => {
  for (const value of [undefined, null, 1, 'x', true])
    assert.equal(nestsDeeperThan(value, 0), false);
  assert.equal(nestsDeeperThan({}, 0), true);
  assert.equal(nestsDeeperThan({ a: 1, b: [] }, 1), true);
  assert.equal(nestsDeeperThan({ a: 1, b: 'x' }, 1), false);
});

test('a chain of n objects or arrays is within n and beyond n - 1', () => {
  for (const wrap of [(v: unknown) => ({ a: v }), (v: unknown) => [v]]) {
    const value = nested(64, wrap);
    assert.equal(nestsDeeperThan(value, 64), false);
    assert.equal(nestsDeeperThan(value, 63), true);
  }
});

test('the deepest branch counts, wherever it is', () => {
  const value = { a: 1, b: [{ c: {} }, { d: nested(10, (v) => ({ e: v })) }] };
  assert.equal(nestsDeeperThan(value, 13), false);
  assert.equal(nestsDeeperThan(value, 12), true);
});

test('100,000 levels are measured without overflowing the stack', () => {
  assert.equal(
    nestsDeeperThan(
      nested(100_000, (v) => [v]),
      64,
    ),
    true,
  );
});
