/**
 * The node arguments that run the real `pagegrab` command line in a child process (serve,
 * accounts, schedules: every test that needs a whole process). The built dist/cli/main.js
 * when it is current, else src/cli/main.ts through tsx.
 *
 * Why the build: a child under tsx sends every module it loads through tsx's loader and
 * takes about twice the CPU to start (a `serve` start: ~5 s under tsx against ~2 s built on
 * the 2-core CI machine), and the suite starts some sixty of them. `npm test` (bootstrap)
 * builds dist/ before the tests, so the build is current there; a run straight after an
 * edit of src/ without `node scripts/build.mjs` falls back to tsx rather than test old code.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

/** Newest modification time of a file or a tree (the rule scripts/build.mjs uses). */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') latest = Math.max(latest, newestMtime(join(path, entry)));
  }
  return latest;
}

/** `output` exists and nothing under `sources` changed after it was written. */
export function builtIsCurrent(sources: string, output: string): boolean {
  if (!existsSync(output)) return false;
  return newestMtime(sources) <= statSync(output).mtimeMs;
}

/** The arguments before the command's own: `[...pagegrabCommand(), 'serve']`. */
export function pagegrabCommand(
  srcDir = join(root, 'src'),
  builtEntry = join(root, 'dist', 'cli', 'main.js'),
): string[] {
  if (builtIsCurrent(srcDir, builtEntry)) return [builtEntry];
  return ['--import', 'tsx', join(srcDir, 'cli', 'main.ts')];
}
