/**
 * HEAP_GROWING_PERCENT is applied by the command's entry before the service's code loads
 * (src/cli/main.ts): a full collection while the code loads, under V8's own growth factor,
 * would set the heap's limit until the next one (issue 16: a crawl's RSS rose 25%). A preload
 * records each heap flag set and whether Fastify or playwright-core were loaded by then.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliEnv, runCli } from './spawn-cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-heap-first-'));
const RECORDER = join(import.meta.dirname, '..', 'helpers', 'record-heap-flag.cjs');

function run(args: string[], extra: Record<string, string>) {
  return runCli(args, cliEnv(dataDir, extra), ['--require', RECORDER]);
}

describe('the heap growth setting at start-up', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is set before the service code loads, and the code then loads', async () => {
    // `accounts list` loads the store; --help loads nothing but the entry (command.ts).
    const { code, stderr } = await run(['accounts', 'list'], { HEAP_GROWING_PERCENT: '37' });
    assert.equal(code, 0, stderr);
    const flags = stderr.split('\n').filter((line) => line.startsWith('HEAP-FLAG'));
    assert.ok(flags.length >= 1, stderr);
    assert.equal(flags[0], 'HEAP-FLAG --heap-growing-percent=37 bulk-loaded=false');
    assert.match(stderr, /^EXIT bulk-loaded=true$/m);
  });

  it('the default is 25%', async () => {
    const { code, stderr } = await run(['--help'], {});
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^HEAP-FLAG --heap-growing-percent=25 bulk-loaded=false$/m);
  });

  it('0 leaves V8 its own factor', async () => {
    const { code, stderr } = await run(['--help'], { HEAP_GROWING_PERCENT: '0' });
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /HEAP-FLAG/);
  });

  it('a bad value stops the command with the setting named, not a stack trace', async () => {
    const { code, stderr } = await run(['accounts', 'list'], { HEAP_GROWING_PERCENT: 'lots' });
    assert.equal(code, 1);
    assert.match(stderr, /^pagegrab: HEAP_GROWING_PERCENT must be/m);
    assert.doesNotMatch(stderr, /HEAP-FLAG|\n\s+at /);
  });
});
