#!/usr/bin/env node
// Compiles src/, test/, scripts/ and dashboard/src/ with esbuild, file by file, into
// build/test-js/ (the same tree), so the test files run as plain JavaScript. Under tsx every
// module a test process loads, node_modules included, goes through tsx's resolve and load
// hooks on another thread: a test file that starts the service took about twice the CPU of
// the same code built (~4.5 s against ~2.2 s for src/main.ts), and the suite runs ~300 files.
//
// A compiled file must read and spawn what its source would: `import.meta.url`, `dirname`
// and `filename` are replaced by the source's own (fixtures, helper scripts, the repository
// root), except `url` in src/, so the output pool still starts the compiled worker beside it
// (src/ finds the package root by `dirname`, config.ts). Inline source maps point at the sources (run with
// --enable-source-maps). Only files newer than their output are compiled again.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the compiled tree is: build/test-js/test/a.test.js for test/a.test.ts. */
export const compiledRoot = join(root, 'build', 'test-js');
const TREES = ['src', 'test', 'scripts', join('dashboard', 'src')];
const CODE = new Set(['.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs']);
const OUT_EXT = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs' };

function sources(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...sources(path));
    } else if (CODE.has(extname(entry.name)) && !entry.name.endsWith('.d.ts')) {
      if (!entry.name.endsWith('.d.mts')) found.push(path);
    }
  }
  return found;
}

/** The compiled path of a source under the repository. */
export function compiledPath(source) {
  const ext = extname(source);
  const rel = relative(root, source);
  return join(compiledRoot, rel.slice(0, rel.length - ext.length) + (OUT_EXT[ext] ?? ext));
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Compiles one source to `out` (by default its place in build/test-js). */
export async function compileOne(source, out = compiledPath(source)) {
  const ext = extname(source);
  const rel = relative(root, source);
  const inSrc = rel.startsWith('src/');
  const define = {
    'import.meta.dirname': JSON.stringify(dirname(source)),
    'import.meta.filename': JSON.stringify(source),
    ...(inSrc ? {} : { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) }),
  };
  const { code } = await transform(readFileSync(source, 'utf8'), {
    loader: ext === '.tsx' ? 'tsx' : ext === '.ts' || ext === '.mts' ? 'ts' : 'js',
    format: ext === '.cjs' ? 'cjs' : 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: source,
    define,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // As tsc builds dist/: imports kept as written, class fields defined.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
  });
  mkdirSync(dirname(out), { recursive: true });
  // Renamed into place: another run in the same tree never imports half a file.
  const partial = `${out}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, out);
}

/** Compiles what changed; returns how many files were compiled. */
export async function compileTests() {
  const stale = TREES.flatMap((tree) => sources(join(root, tree))).filter(
    (source) => mtime(source) > mtime(compiledPath(source)),
  );
  // JSON imported by the code (scripts/test-seconds.json) sits beside it as it is.
  for (const tree of TREES) copyJson(join(root, tree));
  await Promise.all(stale.map((source) => compileOne(source)));
  return stale.length;
}

function copyJson(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') copyJson(path);
    } else if (entry.name.endsWith('.json') && mtime(path) > mtime(compiledPath(path))) {
      mkdirSync(dirname(compiledPath(path)), { recursive: true });
      writeFileSync(compiledPath(path), readFileSync(path));
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const count = await compileTests();
  console.error(`[pagegrab] compiled ${count} files for the tests in ${Date.now() - started} ms`);
}
