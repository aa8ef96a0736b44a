import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** The issue's budget for the initial load: index.html + JS + CSS, gzipped. */
const BUDGET_GZIP_BYTES = 150 * 1024;
const CONFIG = fileURLToPath(new URL('../../dashboard/vite.config.ts', import.meta.url));

let outDir: string;
before(async () => {
  // A private output folder: the e2e suite may be building dist/dashboard at the same time.
  outDir = await mkdtemp(join(tmpdir(), 'pagegrab-dashboard-'));
  await build({ configFile: CONFIG, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
});
after(() => rm(outDir, { recursive: true, force: true }));

async function files(): Promise<string[]> {
  const assets = await readdir(join(outDir, 'assets'));
  return ['index.html', ...assets.map((a) => join('assets', a))];
}

test('the initial load is under 150 KB gzipped', async () => {
  let gzip = 0;
  for (const f of await files())
    gzip += gzipSync(await readFile(join(outDir, f)), { level: 9 }).length;
  assert.ok(gzip > 1000, 'the build produced something');
  assert.ok(gzip < BUDGET_GZIP_BYTES, `${gzip} bytes gzipped`);
});

test('the build is only local files: no external URL in index.html, JS or CSS', async () => {
  const names = await files();
  assert.ok(names.some((n) => n.endsWith('.js')) && names.some((n) => n.endsWith('.css')));
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
  for (const n of names.filter((f) => f.endsWith('.css'))) {
    assert.doesNotMatch(
      await readFile(join(outDir, n), 'utf8'),
      /@import|url\(\s*['"]?(https?:)?\/\//,
    );
  }
});
