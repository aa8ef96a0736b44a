/**
 * Screenshots of every view of the dashboard for review, at 1280x800 and 375x740, light and
 * dark, against the real service with some traffic on a loopback fixture site:
 *   node scripts/build.mjs && node --import tsx bench/dashboard-screenshots.ts [out-dir]
 * Writes <out-dir>/<view>-<wide|narrow>-<light|dark>.png (default test-output/screenshots/).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { DEFAULTS } from '../src/config.js';
import { CHROMIUM_ARGS } from '../src/scrape/engines/browser/chromium-process.js';
import {
  consoleViews,
  LOOKS,
  seedTraffic,
  signInByStorage,
} from '../test/dashboard/console-views.js';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { freePort } from '../test/helpers/free-port.js';
import { startService } from '../test/helpers/service.js';

const out = process.argv[2] ?? join(import.meta.dirname, '..', 'test-output', 'screenshots');
await mkdir(out, { recursive: true });
const [service, site, deadPort] = await Promise.all([
  startService({ credits: 5000 }),
  startFixtureSite(),
  freePort(),
]);
const browser = await chromium.launch({
  executablePath: DEFAULTS.chromiumPath,
  args: [...CHROMIUM_ARGS],
});
try {
  const seeded = await seedTraffic(service.baseUrl, service.apiKey, site, deadPort);
  const written: string[] = [];
  for (const look of LOOKS) {
    for (const view of consoleViews(seeded)) {
      const context = await browser.newContext({
        viewport: { width: look.width, height: look.height },
        colorScheme: look.scheme,
      });
      const page = await context.newPage();
      if (!view.signedOut) await signInByStorage(page, service.apiKey);
      await page.goto(`${service.baseUrl}/${view.hash}`);
      await view.ready(page);
      await view.act?.(page);
      const file = join(out, `${view.name}-${look.label}.png`);
      await page.screenshot({ path: file, fullPage: true });
      written.push(file);
      await context.close();
    }
  }
  console.log(written.join('\n'));
} finally {
  await browser.close();
  await service.close();
  await site.close();
}
