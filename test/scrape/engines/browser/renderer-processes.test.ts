/**
 * Warm pages of several accounts take turns: Chromium's spare renderer (started ahead for
 * the context that navigated last, thrown away when another navigates) would start a
 * renderer process for nearly every render. The launch switches it off, on top of
 * Playwright's own `--disable-features` list, which it must keep (Chromium reads the last).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { processTree } from '../../../../src/scrape/engines/browser/chromium-process.js';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const engine = createBrowserEngine({ allowPrivateNetworks: true });

before(async () => {
  site = await startFixtureSite();
  site.html('/page', '<!doctype html><title>page</title><p>a page</p>');
});
after(async () => {
  await engine.close();
  await site.close();
});

function argvOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** Renderer processes of the engine's browser now. */
function renderers(browserPid: number): number[] {
  return processTree(browserPid).filter((pid) => {
    try {
      return argvOf(pid).some((arg) => arg.includes('--type=renderer'));
    } catch {
      return false; // exited while we looked
    }
  });
}

test('the last --disable-features keeps every feature Playwright switches off, and the spare renderer', async () => {
  await engine.warmUp();
  const [pid] = engine.status().pids;
  assert.ok(pid, 'a browser pid');
  const lists = argvOf(pid)
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
  assert.ok(lists.length >= 2, `Playwright's list and ours: ${JSON.stringify(lists)}`);
  const last = lists.at(-1) as string[];
  assert.ok(last.includes('SpareRendererForSitePerProcess'), last.join(','));
  for (const list of lists) for (const feature of list) assert.ok(last.includes(feature), feature);
});

test('three accounts rendering at once do not start a renderer per render', async () => {
  await engine.warmUp();
  const [pid] = engine.status().pids;
  assert.ok(pid, 'a browser pid');
  const seen = new Set<number>(renderers(pid));
  const watch = setInterval(() => {
    for (const r of renderers(pid)) seen.add(r);
  }, 5);
  const accounts = 3;
  const each = 8;
  const renders = accounts * each;
  try {
    // The accounts render at the same time, as a crawl's lanes do: the churn needs contexts
    // navigating in turn (one context alone reuses its spare).
    await Promise.all(
      Array.from({ length: accounts }, async (_, account) => {
        for (let i = 0; i < each; i++) {
          const plan = renderPlan(site.url('/page'), {}, { isolationKey: `account-${account}` });
          const page = await engine.render(plan);
          assert.match(page.html, /a page/);
        }
      }),
    );
  } finally {
    clearInterval(watch);
  }
  // One renderer per account's page, and a few more at most; with the spare renderer on,
  // each render started one or two (measured: 127 for 60 renders on 4 contexts).
  assert.ok(seen.size < renders / 2, `${seen.size} renderers for ${renders} renders`);
});
