#!/usr/bin/env node
// Runs the given test files with node:test, in the order given (`node --test` would sort
// them by name), two at a time, with the TAP output of `node --test`. Started by
// run-tests.mjs with the compiled files and `--enable-source-maps` (or the sources and
// `--import tsx`): each file's process inherits those flags.
// With --record <file>: writes each file's seconds (its process, start to end) there, the
// figures scripts/test-seconds.json takes from a full run.
import { setMaxListeners } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

const args = process.argv.slice(2);
const recordAt = args[0] === '--record' ? args[1] : null;
const files = (recordAt ? args.slice(2) : args).map((file) => resolve(file));

const COMPILED = join('build', 'test-js', '/');
/** test/a.test.ts for its compiled build/test-js/test/a.test.js: what test-seconds.json names. */
const sourceOf = (file) =>
  file.startsWith(COMPILED) ? file.slice(COMPILED.length).replace(/\.js$/, '.ts') : file;

const abort = new AbortController();
// node:test adds a listener to the signal per file it runs.
setMaxListeners(0, abort.signal);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => abort.abort());

// The per-test timeout only guards against a hang: a file of crawls over two nodes takes
// minutes on a busy 2-core machine, and a guard that fires there is a false failure.
const stream = run({ files, concurrency: 2, timeout: 600_000, signal: abort.signal });
let failed = false;
const seconds = new Map();
// A file's own `test:complete` (named by its path, at nesting 0) times its whole process:
// start-up, hooks and every test, however they were declared. Summing its top-level tests
// timed tests a helper declared (the console audits) under the helper, which no run starts.
stream.on('test:complete', (data) => {
  if (data.nesting !== 0 || !data.file || data.name !== data.file) return;
  const file = sourceOf(relative(process.cwd(), data.file));
  seconds.set(file, (data.details?.duration_ms ?? 0) / 1000);
});
stream.on('test:fail', (data) => {
  if (data.todo === undefined || data.todo === false) failed = true;
});
stream.compose(tap).pipe(process.stdout);
stream.on('end', () => {
  if (recordAt) {
    const sorted = [...seconds].sort((a, b) => b[1] - a[1]).map(([f, s]) => [f, Math.round(s)]);
    writeFileSync(recordAt, `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`);
  }
  process.exitCode = failed || abort.signal.aborted ? 1 : 0;
});
