/**
 * The built dashboard for a test file: dist/dashboard when it is current (bootstrap builds it
 * before the tests; a vite build per file cost each e2e file seconds of CPU), else a build of
 * its own in a temp folder. Never a build into the shared dist/dashboard: test files run two
 * at a time, and vite empties its output folder before it writes, which would blank the pages
 * another file's Chromium is loading.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtIsCurrent } from './pagegrab-command.js';

const root = resolve(import.meta.dirname, '..', '..');
const CONFIG = join(root, 'dashboard', 'vite.config.ts');
const SHARED = join(root, 'dist', 'dashboard');

export interface DashboardBuild {
  /** Pass as DASHBOARD_DIR to the service. */
  dir: string;
  remove(): Promise<void>;
}

export async function buildDashboard(): Promise<DashboardBuild> {
  if (builtIsCurrent(join(root, 'dashboard'), join(SHARED, 'index.html'))) {
    return { dir: SHARED, remove: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), 'pagegrab-dashboard-'));
  // Imported only here: loading vite alone costs the file a second of CPU.
  const { build } = await import('vite');
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
