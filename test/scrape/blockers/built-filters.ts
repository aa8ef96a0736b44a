/**
 * Test helper: the engines built by scripts/build-filters.ts. Builds them into
 * build/filters when missing (the build skips itself when up to date, so this is cheap).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export function builtFilterDir(): string {
  const dir = `${ROOT}build/filters`;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-filters.ts', dir], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  return dir;
}
