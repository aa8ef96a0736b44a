/**
 * The `pagegrab` command itself (issue 30, points 8 and 9): `--version`, a `--help` that
 * loads none of the commands, and one line on stderr for every failure, its stack only with
 * `--verbose` or DEBUG; exit 2 for a usage error, 1 otherwise.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliEnv, runCli } from './spawn-cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-command-'));
const env = cliEnv(dataDir, { LOG_LEVEL: 'silent' });
const RECORDER = join(import.meta.dirname, '..', 'helpers', 'record-heap-flag.cjs');
const root = join(import.meta.dirname, '..', '..');
const STACK = /\n\s+at /;

describe('pagegrab', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    const { code, stdout, stderr } = await runCli(['--version'], env);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `${version}\n`);
  });

  it('--help states the JSON convention and loads neither the service nor the store', async () => {
    const { code, stdout, stderr } = await runCli(['--help'], env, ['--require', RECORDER]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^ {2}pagegrab accounts list \[--show-secrets\] \[--json\]$/m);
    assert.match(stdout, /--json +print the result as one JSON document on one line/);
    assert.match(stderr, /^EXIT bulk-loaded=false$/m);
    const sub = await runCli(['accounts', '--help'], env);
    assert.equal(sub.code, 0);
    assert.equal(sub.stdout, stdout);
  });

  it('an unknown command is a usage error: one reason line, the usage, exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['frobnicate'], env);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    const [first, second] = stderr.split('\n');
    assert.equal(first, 'pagegrab: unknown command "frobnicate"');
    assert.equal(second, 'pagegrab: self-hosted page scraping service');
  });

  it('a failure that is not a usage error is one line, exit 1; the stack only when asked', async () => {
    const missing = join(dataDir, 'no-such-proxies.json');
    const quiet = await runCli(['proxies'], { ...env, PROXIES_FILE: missing });
    assert.equal(quiet.code, 1);
    assert.equal(
      quiet.stderr,
      `pagegrab: PROXIES_FILE cannot be read: ENOENT: no such file or directory, open '${missing}' (--verbose shows the stack)\n`,
    );
    const verbose = await runCli(['proxies', '--verbose'], { ...env, PROXIES_FILE: missing });
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /^pagegrab: PROXIES_FILE cannot be read: ENOENT: no such file/);
    assert.match(verbose.stderr, STACK);
    const debug = await runCli(['proxies'], { ...env, PROXIES_FILE: missing, DEBUG: '1' });
    assert.equal(debug.code, 1);
    assert.match(debug.stderr, STACK);
  });

  it('a bad setting is one line naming it, exit 1', async () => {
    const { code, stderr } = await runCli(['accounts', 'list'], { ...env, PORT: 'eighty' });
    assert.equal(code, 1);
    assert.equal(stderr, 'pagegrab: PORT must be an integer, got "eighty"\n');
  });
});
