import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pagegrabCommand } from './pagegrab-command.js';

const dir = mkdtempSync(join(tmpdir(), 'pagegrab-command-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const src = join(dir, 'src');
const built = join(dir, 'dist', 'cli', 'main.js');
mkdirSync(join(src, 'cli'), { recursive: true });
mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
const source = join(src, 'cli', 'command.ts');
writeFileSync(source, '');

/** Sets a file's modification time, seconds from now. */
const touch = (path: string, secondsFromNow: number) => {
  const at = new Date(Date.now() + secondsFromNow * 1000);
  utimesSync(path, at, at);
};

test('without a build the command line runs from src through tsx', () => {
  assert.deepEqual(pagegrabCommand(src, built), ['--import', 'tsx', join(src, 'cli', 'main.ts')]);
});

test('a build newer than every source is run directly', () => {
  writeFileSync(built, '');
  touch(source, -60);
  touch(join(src, 'cli'), -60);
  touch(src, -60);
  touch(built, 0);
  assert.deepEqual(pagegrabCommand(src, built), [built]);
});

test('a source edited after the build sends the command line back to tsx', () => {
  writeFileSync(built, '');
  touch(built, -60);
  touch(source, 0);
  assert.deepEqual(pagegrabCommand(src, built), ['--import', 'tsx', join(src, 'cli', 'main.ts')]);
});
