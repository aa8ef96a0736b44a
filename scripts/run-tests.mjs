#!/usr/bin/env node
// Runs every test file under test/ with node:test, with one PostgreSQL server started for the
// whole run (each suite creates its own database in it). The files run compiled
// (compile-tests.mjs: build/test-js/, with source maps), not through tsx, whose loader about
// doubled the CPU of every test process's start; `--tsx` runs the sources through tsx instead.
// The longest files start first (test-order.mjs). `--record <file>` writes each file's
// seconds there (run-test-files.mjs), to refresh scripts/test-seconds.json after a full run.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startPostgres } from '../test/helpers/postgres-server.mjs';
import { compiledPath, compileTests } from './compile-tests.mjs';
import { startOrder } from './test-order.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...testFiles(path));
    else if (entry.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found.sort();
}

const argv = process.argv.slice(2);
const viaTsx = argv[0] === '--tsx' ? Boolean(argv.shift()) : false;
const record = argv[0] === '--record' ? argv.splice(0, 2) : [];
const filters = argv;
const seconds = JSON.parse(readFileSync(join(root, 'scripts', 'test-seconds.json'), 'utf8'));
const files = startOrder(
  testFiles(join(root, 'test')).filter(
    (file) => filters.length === 0 || filters.some((f) => file.includes(f)),
  ),
  seconds,
);

if (!viaTsx) {
  const started = Date.now();
  const count = await compileTests();
  if (count > 0) console.error(`[pagegrab] compiled ${count} files in ${Date.now() - started} ms`);
}

let postgres = null;
if (findPostgresBin()) {
  postgres = await startPostgres();
  console.error(`[pagegrab] PostgreSQL for the tests on 127.0.0.1:${postgres.port}`);
} else {
  console.error('[pagegrab] PostgreSQL not installed: its test halves will be skipped');
}

const child = spawn(
  process.execPath,
  [
    ...(viaTsx ? ['--import', 'tsx'] : ['--enable-source-maps']),
    join(root, 'scripts', 'run-test-files.mjs'),
    ...record,
    ...(viaTsx ? files : files.map((file) => compiledPath(join(root, file)))),
  ],
  {
    stdio: 'inherit',
    cwd: root,
    env: {
      ...process.env,
      ...(postgres ? { PAGEGRAB_TEST_PG_ADMIN_URL: postgres.adminUrl } : {}),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
await postgres?.stop();
process.exit(code);
