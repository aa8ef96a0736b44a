import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startOrder } from '../../scripts/test-order.mjs';

test('the files that took longest start first, longest first', () => {
  const files = ['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts'];
  const seconds = { 'test/b.test.ts': 30, 'test/c.test.ts': 120 };
  assert.deepEqual(startOrder(files, seconds), [
    'test/c.test.ts',
    'test/b.test.ts',
    'test/a.test.ts',
  ]);
});

test('files without a figure follow by name, and a figure for a missing file is ignored', () => {
  const files = ['test/z.test.ts', 'test/m.test.ts', 'test/a.test.ts', 'test/slow.test.ts'];
  const seconds = { 'test/slow.test.ts': 5, 'test/gone.test.ts': 999 };
  assert.deepEqual(startOrder(files, seconds), [
    'test/slow.test.ts',
    'test/a.test.ts',
    'test/m.test.ts',
    'test/z.test.ts',
  ]);
});

test('every figure in scripts/test-seconds.json names a test file that exists', () => {
  const root = join(import.meta.dirname, '..', '..');
  const seconds = JSON.parse(
    readFileSync(join(root, 'scripts', 'test-seconds.json'), 'utf8'),
  ) as Record<string, number>;
  for (const [file, value] of Object.entries(seconds)) {
    assert.ok(Number.isFinite(value) && value >= 0, `${file}: ${value}`);
    assert.doesNotThrow(() => readFileSync(join(root, file)), `${file} exists`);
  }
});
