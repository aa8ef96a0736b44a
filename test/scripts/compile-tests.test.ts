import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { compiledPath, compiledRoot, compileOne } from '../../scripts/compile-tests.mjs';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pagegrab-compile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a compiled file lies in build/test-js at its source’s place, as .js', () => {
  assert.equal(
    compiledPath(join(root, 'test', 'api', 'a.test.ts')),
    join(compiledRoot, 'test', 'api', 'a.test.js'),
  );
  assert.equal(
    compiledPath(join(root, 'dashboard', 'src', 'app.tsx')),
    join(compiledRoot, 'dashboard', 'src', 'app.js'),
  );
  assert.equal(compiledPath(join(root, 'test', 'x.mjs')), join(compiledRoot, 'test', 'x.mjs'));
});

test('a compiled test file sees its source’s path, so it finds its fixtures', async () => {
  const source = join(dir, 'where.ts');
  writeFileSync(
    source,
    `const typed: string = 'x';
export const where = { dirname: import.meta.dirname, filename: import.meta.filename, url: import.meta.url, typed };`,
  );
  const out = join(dir, 'out', 'where.js');
  await compileOne(source, out);
  const { where } = (await import(pathToFileURL(out).href)) as {
    where: { dirname: string; filename: string; url: string; typed: string };
  };
  assert.deepEqual(where, {
    dirname: dir,
    filename: source,
    url: pathToFileURL(source).href,
    typed: 'x',
  });
});
