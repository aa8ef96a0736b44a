#!/usr/bin/env node
// `npm start` and `npm test` on a fresh machine with only Node and npm: install what is
// missing (npm dependencies; Debian's Chromium and, for tests, PostgreSQL when we are root),
// build when the sources changed, then serve or test. Plain Node: no dependency may be assumed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] ?? 'start';
const isRoot = process.getuid?.() === 0;

function say(message) {
  console.error(`[pagegrab] ${message}`);
}

function sh(cmd, args, options = {}) {
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function ensureNodeModules() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (mtime(installed) >= mtime(join(root, 'package-lock.json')) && existsSync(installed)) return;
  say('installing npm dependencies (better-sqlite3 compiles, 2-5 min the first time)');
  // `npm install`, not `npm ci`: the registry reachable here has no packages for other
  // platforms (biome's and esbuild's darwin/win32 builds), so the lock file cannot list them
  // and `npm ci` refuses it. With the lock file present, `npm install` installs its versions.
  sh('npm', ['install', '--no-audit', '--no-fund']);
}

let aptUpdated = false;
function aptInstall(packages) {
  if (!isRoot || !existsSync('/usr/bin/apt-get')) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    sh('apt-get', ['update', '-qq'], { env });
    aptUpdated = true;
  }
  sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env });
  return true;
}

function ensureChromium() {
  if (process.env.CHROMIUM_PATH || existsSync('/usr/lib/chromium/chromium')) return;
  say("Debian's Chromium is missing: installing it (apt-get install chromium)");
  if (!aptInstall(['chromium', 'fonts-liberation'])) {
    say(
      'cannot install Chromium here (not root or no apt-get): run `sudo apt-get install chromium`',
    );
    say('or set CHROMIUM_PATH; render=true requests fail until then');
  }
}

function ensurePostgres() {
  if (existsSync('/usr/lib/postgresql') || !isRoot) return;
  say('PostgreSQL is missing: installing it for the storage tests (apt-get install postgresql)');
  aptInstall(['postgresql']);
}

function run(cmd, args) {
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: root });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // `npm start` runs this under npm → sh -c; npm passes a SIGTERM to the shell, which dies of
  // it without passing it on, and this process (with the server under it) was left running.
  // So, when npm started it, the shell's end stops the child the way the signal would have
  // (the same rule as `pagegrab serve`'s EXIT_WITH_PARENT; false keeps it running).
  if (process.env.npm_command && process.env.EXIT_WITH_PARENT !== 'false') {
    const parent = process.ppid;
    const watch = setInterval(() => {
      try {
        process.kill(parent, 0);
      } catch (error) {
        if (error.code === 'EPERM') return;
        clearInterval(watch);
        child.kill('SIGTERM');
      }
    }, 250);
    watch.unref();
  }
}

ensureNodeModules();
ensureChromium();
if (mode === 'test') ensurePostgres();
sh(process.execPath, [join(root, 'scripts', 'build.mjs')]);
if (mode === 'test') {
  sh('npx', ['biome', 'check', '.']);
  sh('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  run(process.execPath, [join(root, 'scripts', 'run-tests.mjs'), ...process.argv.slice(3)]);
} else {
  run(process.execPath, [join(root, 'bin', 'pagegrab.mjs'), 'serve']);
}
