/**
 * The audit of every view of the console (console-audit-wide and -narrow .e2e.test.ts, one
 * file per size so each stays well inside the runner's time limit on a busy machine): in real
 * Chromium on the built dashboard served by the real service, an axe-core audit finds no
 * serious or critical violation, each view sets its own title, and none scrolls sideways. One
 * page per size and theme moves from view to view as a user would (hash routes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { freePort } from '../helpers/free-port.js';
import { startService, type TestService } from '../helpers/service.js';
import {
  consoleViews,
  type LOOKS,
  type Seeded,
  seedTraffic,
  signInByStorage,
} from './console-views.js';

const ROOT = new URL('../..', import.meta.url).pathname;

export function auditLooks(looks: readonly (typeof LOOKS)[number][]): void {
  describe('the console audit', () => {
    let service: TestService;
    let site: FixtureSite;
    let browser: Browser;
    let seeded: Seeded;

    before(async () => {
      await build({ configFile: `${ROOT}dashboard/vite.config.ts`, logLevel: 'warn' });
      let deadPort: number;
      [service, site, deadPort] = await Promise.all([
        startService({ credits: 5000 }),
        startFixtureSite(),
        freePort(),
      ]);
      seeded = await seedTraffic(service.baseUrl, service.apiKey, site, deadPort);
      browser = await chromium.launch({
        executablePath: DEFAULTS.chromiumPath,
        args: [...CHROMIUM_ARGS],
      });
    });
    after(async () => {
      await browser?.close();
      await service?.close();
      await site?.close();
    });

    for (const look of looks) {
      test(`${look.label} (${look.width}x${look.height}): every view has its title, no sideways scroll, no serious or critical axe violation`, async () => {
        const problems: string[] = [];
        const context = await browser.newContext({
          viewport: { width: look.width, height: look.height },
          colorScheme: look.scheme,
        });
        try {
          const signedOut = await context.newPage();
          const page = await context.newPage();
          page.setDefaultTimeout(60_000);
          signedOut.setDefaultTimeout(60_000);
          await signInByStorage(page, service.apiKey);
          await page.goto(`${service.baseUrl}/#/`);
          for (const view of consoleViews(seeded)) {
            const p = view.signedOut ? signedOut : page;
            if (view.signedOut) await p.goto(`${service.baseUrl}/`);
            else
              await p.evaluate((hash) => {
                window.location.hash = hash;
              }, view.hash);
            await view.ready(p);
            await view.act?.(p);
            const where = `${view.name} ${look.label}`;
            const title = await p.title();
            if (!view.title.test(title)) problems.push(`${where}: title "${title}"`);
            const overflow = await p.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            if (overflow > 0) problems.push(`${where}: ${overflow}px sideways`);
            const { violations } = await new AxeBuilder({ page: p }).analyze();
            for (const v of violations) {
              if (v.impact !== 'serious' && v.impact !== 'critical') continue;
              const targets = v.nodes.slice(0, 3).map((n) => n.target.join(' '));
              problems.push(`${where}: ${v.id} (${v.impact}) at ${targets.join(', ')}`);
            }
          }
        } finally {
          await context.close();
        }
        assert.deepEqual(problems, []);
      });
    }
  });
}
