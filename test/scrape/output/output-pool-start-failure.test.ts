/**
 * Output workers that cannot start (seen in issue 16: a `--import` preload that worker
 * threads inherit and could not load) fail the waiting pages with INTERNAL instead of being
 * replaced forever while the pages wait. Run in a child process on the built pool (`npm test`
 * builds first): the preload that breaks the workers must be in the process's execArgv, and
 * it reaches workers started from a file, as the built service's are.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const FIXTURES = join(import.meta.dirname, 'fixtures');

describe('output pool whose workers cannot start', () => {
  it('fails each waiting page with INTERNAL, and the process ends', async () => {
    const built = join(import.meta.dirname, '..', '..', '..', 'dist', 'scrape', 'output');
    assert.ok(existsSync(join(built, 'output-worker.js')), 'run `npm run build` first');
    const { code, stdout, stderr } = await new Promise<{
      code: number | string | null | undefined;
      stdout: string;
      stderr: string;
    }>((resolve) => {
      execFile(
        process.execPath,
        [
          '--import',
          pathToFileURL(join(FIXTURES, 'fail-worker-start.mjs')).href,
          join(FIXTURES, 'pool-without-workers.mjs'),
        ],
        // Only a guard: before the fix the pages waited forever and this killed the child.
        { timeout: 120_000 },
        (error, out, err) =>
          resolve({ code: error ? (error.code ?? error.signal) : 0, stdout: out, stderr: err }),
      );
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout.trim()), ['INTERNAL', 'INTERNAL', 'INTERNAL']);
  });
});
