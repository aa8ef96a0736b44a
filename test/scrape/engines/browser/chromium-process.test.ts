import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

/** Modules of playwright-core this process has loaded (it is CommonJS, so in require's cache). */
function playwrightModulesLoaded(): string[] {
  const cache = createRequire(import.meta.url).cache;
  return Object.keys(cache).filter((path) => path.includes('/node_modules/playwright-core/'));
}

test('the whole service loads without playwright-core until a render launches Chromium', async () => {
  await import('../../../../src/main.js');
  assert.deepEqual(playwrightModulesLoaded(), []);
});

test('the launch arguments keep playwright’s disabled features and add ours', async () => {
  const { chromium } = await import('playwright-core');
  const { disabledFeaturesArg } = await import(
    '../../../../src/scrape/engines/browser/chromium-process.js'
  );
  const arg = disabledFeaturesArg(chromium);
  assert.match(arg, /^--disable-features=/);
  assert.ok(arg.split(/[=,]/).includes('SpareRendererForSitePerProcess'), arg);
  assert.ok(playwrightModulesLoaded().length > 0);
});
