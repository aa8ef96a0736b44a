/**
 * The dashboard built for one test file, in a folder of its own. Test files run two at a
 * time, and vite empties its output folder before it writes: a build into the shared
 * dist/dashboard would blank the pages another file's Chromium is loading.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONFIG = fileURLToPath(new URL('../../dashboard/vite.config.ts', import.meta.url));

export interface DashboardBuild {
  /** Pass as DASHBOARD_DIR to the service. */
  dir: string;
  remove(): Promise<void>;
}

export async function buildDashboard(): Promise<DashboardBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'pagegrab-dashboard-'));
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
