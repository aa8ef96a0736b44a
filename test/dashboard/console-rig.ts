/**
 * What the console's e2e tests and its audit run against: the dashboard built, the real
 * service with seeded traffic (including a failing target on a dead port), a fixture site
 * and Chromium.
 */
import { type Browser, chromium } from 'playwright-core';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { buildDashboard } from '../helpers/dashboard-build.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { freePort } from '../helpers/free-port.js';
import { startService, type TestAccount, type TestService } from '../helpers/service.js';
import { type Seeded, seedTraffic } from './console-views.js';

export interface ConsoleRig {
  service: TestService;
  site: FixtureSite;
  browser: Browser;
  seeded: Seeded;
  /**
   * Another account on the same service with traffic of its own: a test that changes its
   * account (keys, secret, workflows, more requests) runs once per look without seeing
   * what the other looks' runs left.
   */
  seededAccount(): Promise<{ account: TestAccount; seeded: Seeded }>;
  close(): Promise<void>;
}

export async function startConsoleRig(): Promise<ConsoleRig> {
  const dashboard = await buildDashboard();
  // Chromium starts while the service starts and is seeded; the seeding asks for Markdown at
  // once, so the output workers boot with the service.
  const launched = chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
  // its failure is the rig's, awaited below; not an unhandled rejection meanwhile
  launched.catch(() => {});
  const [service, site, deadPort] = await Promise.all([
    startService({
      credits: 5000,
      env: { DASHBOARD_DIR: dashboard.dir },
      warmOutputWorkers: true,
    }),
    startFixtureSite(),
    freePort(),
  ]).catch(async (error: unknown) => {
    await launched.then((b) => b.close()).catch(() => {});
    throw error;
  });
  const seeded = await seedTraffic(service.baseUrl, service.apiKey, site, deadPort);
  const browser = await launched;
  return {
    service,
    site,
    browser,
    seeded,
    async seededAccount() {
      const account = await service.addAccount(5000);
      return {
        account,
        seeded: await seedTraffic(service.baseUrl, account.apiKey, site, deadPort),
      };
    },
    async close() {
      await browser.close();
      await service.close();
      await site.close();
      await dashboard.remove();
    },
  };
}
