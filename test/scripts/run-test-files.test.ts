import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const runner = join(import.meta.dirname, '..', '..', 'scripts', 'run-test-files.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pagegrab-record-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('--record times a file under its own name, tests declared by a helper it imports too', async () => {
  // As the console audits do: the test file calls a helper that declares the tests.
  writeFileSync(
    join(dir, 'declare.mjs'),
    `import { test } from 'node:test';
export const declare = () => test('declared in a helper', () => new Promise((r) => setTimeout(r, 50)));`,
  );
  writeFileSync(join(dir, 'a.test.mjs'), `import { declare } from './declare.mjs';\ndeclare();\n`);
  writeFileSync(
    join(dir, 'b.test.mjs'),
    `import { test } from 'node:test';\ntest('own', () => {});\n`,
  );
  await promisify(execFile)(
    process.execPath,
    [runner, '--record', 'seconds.json', 'a.test.mjs', 'b.test.mjs'],
    // Without the context node:test gives this file's process, or the runner reports to it.
    { cwd: dir, env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
  );
  const seconds = JSON.parse(readFileSync(join(dir, 'seconds.json'), 'utf8')) as Record<
    string,
    number
  >;
  assert.deepEqual(Object.keys(seconds).sort(), ['a.test.mjs', 'b.test.mjs']);
  for (const value of Object.values(seconds)) assert.ok(Number.isFinite(value) && value >= 0);
});
