/**
 * Our isolated world (the settle's probe, html(), the blockers' calls) is asked for in each
 * new document of a warm page: a render's lookups are round trips on the critical path, so a
 * render looks the world up once, and never first finds the last document's context gone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type CDPSession, chromium } from 'playwright-core';
import { DEFAULTS } from '../../../../src/config.js';
import { CHROMIUM_ARGS } from '../../../../src/scrape/engines/browser/chromium-process.js';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
let engine: ReturnType<typeof createBrowserEngine>;
/** Every CDP session of this process created through playwright-core's client. */
let sessions: { send: CDPSession['send'] };

before(async () => {
  // A session's class, reached through one session of a browser used for nothing else.
  const browser = await chromium.launch({
    executablePath: DEFAULTS.chromiumPath,
    args: [...CHROMIUM_ARGS],
  });
  const page = await browser.newPage();
  sessions = Object.getPrototypeOf(await page.context().newCDPSession(page));
  await browser.close();
  site = await startFixtureSite();
  site.html('/', '<!doctype html><html><body><h1>Warm</h1><p>A static page.</p></body></html>');
  engine = createBrowserEngine({ allowPrivateNetworks: true, maxConcurrentPages: 1 });
});
after(async () => {
  await engine?.close();
  await site?.close();
});

test('a render on a warm page looks its world up once, with no evaluation in a gone context', async () => {
  const send = sessions.send;
  const calls: { method: string; failed: boolean }[] = [];
  // An observer around the real sends: each goes to Chromium as before.
  sessions.send = async function (this: CDPSession, ...args: Parameters<CDPSession['send']>) {
    try {
      const answer = await Reflect.apply(send, this, args);
      calls.push({ method: args[0], failed: false });
      return answer;
    } catch (error) {
      calls.push({ method: args[0], failed: true });
      throw error;
    }
  } as CDPSession['send'];
  try {
    await engine.render(renderPlan(site.url('/')));
    calls.length = 0;
    const warmRenders = 2;
    for (let i = 0; i < warmRenders; i++) {
      const snapshot = await engine.render(renderPlan(site.url('/')));
      assert.match(snapshot.html, /A static page/);
    }
    assert.equal(engine.status().contextsCreated, 1, 'the renders shared one warm page');
    assert.deepEqual(
      calls.filter((c) => c.failed),
      [],
      'no evaluation was sent to the last document',
    );
    const lookups = calls.filter((c) => c.method === 'Page.createIsolatedWorld').length;
    assert.equal(lookups, warmRenders, 'one world lookup per render');
  } finally {
    sessions.send = send;
  }
});
