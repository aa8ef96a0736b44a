#!/usr/bin/env node
// Runs every test file under test/ with node:test (TypeScript through tsx), with one
// PostgreSQL server started for the whole run (each suite creates its own database in it).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startPostgres } from '../test/helpers/postgres-server.mjs';

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

const filters = process.argv.slice(2);
const files = testFiles(join(root, 'test')).filter(
  (file) => filters.length === 0 || filters.some((f) => file.includes(f)),
);

let postgres = null;
if (findPostgresBin()) {
  postgres = await startPostgres();
  console.error(`[pagegrab] PostgreSQL for the tests on 127.0.0.1:${postgres.port}`);
} else {
  console.error('[pagegrab] PostgreSQL not installed: its test halves will be skipped');
}

// The per-test timeout only guards against a hang: a file of crawls over two nodes takes
// minutes on a busy 2-core machine, and a guard that fires there is a false failure.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', ...files],
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
