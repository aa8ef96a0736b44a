/**
 * The settle's timer count in a real page: a short one-shot timer of the page is pending
 * work; the same timer set by one of our own page-world scripts (the consent rejector's,
 * which runs under `ownScriptNameOf(secret)`) is not, so that blocking cookie banners never
 * holds a render for autoconsent's detection retries.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../../../src/config.js';
import { CHROMIUM_ARGS } from '../../../../src/scrape/engines/browser/chromium-process.js';
import {
  observerScript,
  ownScriptNameOf,
  PROBE,
  SETTLE_WORLD,
  type SettleProbe,
  timersScript,
} from '../../../../src/scrape/engines/browser/settle-scripts.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';

const SECRET = 'pg-settle-scripts-test';
let browser: Browser;
let site: FixtureSite;

before(async () => {
  site = await startFixtureSite();
  site.html('/', '<!doctype html><html><body><main><h1>Page</h1></main></body></html>');
  browser = await chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/** A page with the settle's scripts, and `ownScript` run as one of ours when given. */
async function settlePage(
  ownScript?: string,
): Promise<{ page: Page; probe(): Promise<SettleProbe> }> {
  const context = await browser.newContext();
  await context.addInitScript({ content: timersScript(SECRET) });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
    source: observerScript(SECRET),
    worldName: SETTLE_WORLD,
  });
  if (ownScript) {
    await page.addInitScript({
      content: `${ownScript}\n//# sourceURL=${ownScriptNameOf(SECRET)}\n`,
    });
  }
  await page.goto(site.url('/'));
  const probe = async () => {
    const frame = (await cdp.send('Page.getFrameTree')).frameTree.frame.id;
    const world = await cdp.send('Page.createIsolatedWorld', {
      frameId: frame,
      worldName: SETTLE_WORLD,
    });
    const read = await cdp.send('Runtime.evaluate', {
      contextId: world.executionContextId,
      expression: PROBE,
      returnByValue: true,
    });
    return read.result.value as SettleProbe;
  };
  return { page, probe };
}

const LATE_TIMER = `addEventListener('load', () => { setTimeout(() => { document.title = 'fired'; }, 1500); });`;

test("a page's own short timer is pending work", async () => {
  const { page, probe } = await settlePage();
  await page.evaluate(
    LATE_TIMER.replace("addEventListener('load', () => ", '(() => ').replace(/\);$/, ')();'),
  );
  assert.equal((await probe()).timers, true);
  await page.close();
});

test('a timer set by our own page-world script (the consent rejector) is not', async () => {
  const { page, probe } = await settlePage(LATE_TIMER);
  assert.equal(await page.title(), '', 'the timer has not fired yet');
  assert.equal((await probe()).timers, false);
  await page.close();
});
