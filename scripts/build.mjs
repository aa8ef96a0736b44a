#!/usr/bin/env node
// Builds what the service runs: dist/ (TypeScript), build/filters (ad and cookie-notice
// engines from the shipped lists) and dist/dashboard (the web UI). Each step is skipped when
// its outputs are newer than its inputs, so `npm start` stays fast after the first time.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function stale(outputs, inputs) {
  const built = Math.min(...outputs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : 0)));
  return built === 0 || Math.max(...inputs.map(newest)) > built;
}

function step(name, outputs, inputs, cmd, args) {
  if (!stale(outputs, inputs)) return;
  console.error(`[pagegrab] building ${name}`);
  const started = Date.now();
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root });
  console.error(`[pagegrab] built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const lock = join(root, 'package-lock.json');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
step(
  'the server (dist/)',
  [join(root, 'dist', 'cli', 'main.js')],
  [join(root, 'src'), lock],
  process.execPath,
  [tsc, '-p', 'tsconfig.build.json'],
);
step(
  'the filter engines (build/filters)',
  [join(root, 'build', 'filters', 'ads.bin'), join(root, 'build', 'filters', 'cookies.bin')],
  [join(root, 'scripts', 'build-filters.ts'), join(root, 'scripts', 'filters'), lock],
  process.execPath,
  ['--import', 'tsx', 'scripts/build-filters.ts', 'build/filters'],
);
if (existsSync(join(root, 'dashboard', 'vite.config.ts'))) {
  step(
    'the dashboard (dist/dashboard)',
    [join(root, 'dist', 'dashboard', 'index.html')],
    [join(root, 'dashboard'), lock],
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'dashboard/vite.config.ts',
      '--logLevel',
      'warn',
    ],
  );
}
