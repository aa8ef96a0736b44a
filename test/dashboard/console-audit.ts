/**
 * The audit of every view of the console (console-audit-wide and -narrow .e2e.test.ts, one
 * file per size so each stays well inside the runner's time limit on a busy machine): in real
 * Chromium on the built dashboard served by the real service, an axe-core audit finds no
 * serious or critical violation, each view sets its own title, and none scrolls sideways; the
 * same for the API reference at /docs. One page per size and theme moves from view to view as
 * a user would (hash routes).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { TestService } from '../helpers/service.js';
import { type ConsoleRig, startConsoleRig } from './console-rig.js';
import { consoleViews, type LOOKS, type Seeded, signInByStorage } from './console-views.js';

/**
 * Only violations are read: without this, axe details every passing node of every rule too
 * (4.6 MB of results on /docs), which took about a quarter of each audit's time.
 */
const VIOLATIONS_ONLY = { resultTypes: ['violations' as const] };

/**
 * The serious and critical violations on the page as it is, one line each. axe runs in the
 * page with `axe.run` (AxeBuilder's legacy mode): its default, `runPartial` in each frame and
 * `finishRun` in a blank page, carries every rule's partial results (passes too: `resultTypes`
 * does not apply to them) to Node and back, and took three times as long on /docs for the same
 * violations. Legacy mode audits same-origin frames only, so any other frame is a problem.
 */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const problems = page
    .frames()
    .filter((frame) => frame !== page.mainFrame() && originOf(frame.url()) !== origin)
    .map((frame) => `${where}: a frame from ${frame.url()} that this audit cannot reach`);
  const { violations } = await new AxeBuilder({ page })
    .options(VIOLATIONS_ONLY)
    .setLegacyMode()
    .analyze();
  for (const v of violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const targets = v.nodes.slice(0, 3).map((n) => n.target.join(' '));
    problems.push(`${where}: ${v.id} (${v.impact}) at ${targets.join(', ')}`);
  }
  return problems;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * The audit's hooks and one test per look, inside the caller's `describe`: the test file's
 * own top-level suite is what the runner's `--record` times under the file's name (a suite
 * declared here was recorded under console-audit.ts, which no run starts).
 */
export function auditLooks(looks: readonly (typeof LOOKS)[number][]): void {
  let service: TestService;
  let browser: Browser;
  let seeded: Seeded;

  let rig: ConsoleRig | undefined;

  before(async () => {
    rig = await startConsoleRig();
    ({ service, browser, seeded } = rig);
  });
  after(() => rig?.close());

  test('the audit reports what it is shown: low contrast in the dark scheme, an unnamed button', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      await page.goto(`${service.baseUrl}/healthz`);
      await page.setContent(`<html lang="en"><head><title>t</title><style>
        @media (prefers-color-scheme: dark) { p { color: #333; background: #222 } }</style></head>
        <body><main><h1>t</h1><p>dim text</p><button></button></main></body></html>`);
      const found = (await seriousViolations(page, 'sample')).join('\n');
      assert.match(found, /color-contrast \(serious\)/);
      assert.match(found, /button-name \(critical\)/);
    } finally {
      await context.close();
    }
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
          // A view sets its title once its data is in, which may follow its first paint.
          await p
            .waitForFunction((re) => new RegExp(re).test(document.title), view.title.source, {
              timeout: 10_000,
            })
            .catch(() => {});
          const title = await p.title();
          if (!view.title.test(title)) problems.push(`${where}: title "${title}"`);
          const overflow = await p.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          if (overflow > 0) problems.push(`${where}: ${overflow}px sideways`);
          problems.push(...(await seriousViolations(p, where)));
        }
        // The API reference is a page the service serves too: the same bar.
        await page.goto(`${service.baseUrl}/docs`);
        await page.locator('h1').waitFor();
        const docsOverflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        if (docsOverflow > 0) problems.push(`/docs ${look.label}: ${docsOverflow}px sideways`);
        problems.push(...(await seriousViolations(page, `/docs ${look.label}`)));
      } finally {
        await context.close();
      }
      assert.deepEqual(problems, []);
    });
  }
}
