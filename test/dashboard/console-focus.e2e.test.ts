/**
 * Where focus goes in the console (issue 30, point 5) and the keys view's names and last-used
 * times (point 4), in real Chromium on the built dashboard served by the real service: after
 * a change of view, after Send request, after creating a key and after "Add wait", focus is on
 * what appeared, never left on the page's body; a screenshot's result and the crawl detail
 * have no scrollable region a keyboard cannot reach (axe). One look (1280x800, light): focus
 * does not depend on the size; console-audit-*.e2e.test.ts audits every look.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { type ConsoleRig, startConsoleRig } from './console-rig.js';
import { signInByStorage } from './console-views.js';

/** The focused element, as its tag, test id and text, or `body` when focus fell back. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const id = el.dataset.testid ?? el.closest<HTMLElement>('[data-testid]')?.dataset.testid;
    return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}`;
  });

/** Focus moves after the view renders, a task or more after the click: wait for it (a guard). */
const FOCUS_GUARD_MS = 10_000;

/** Whether `check` holds within FOCUS_GUARD_MS, polled; false past the guard. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + FOCUS_GUARD_MS;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asserts that focus reaches an element matching `pattern` (focused()'s description). */
async function assertFocus(page: Page, pattern: RegExp): Promise<void> {
  await eventually(async () => pattern.test(await focused(page)));
  assert.match(await focused(page), pattern);
}

describe('console focus and keys', () => {
  let rig: ConsoleRig;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
    context = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInByStorage(page, rig.service.apiKey);
    await page.goto(`${rig.service.baseUrl}/#/`);
    await page.getByTestId('recent-table').waitFor();
  });
  after(async () => {
    await context?.close();
    await rig?.close();
  });

  const go = (hash: string) =>
    page.evaluate((h) => {
      window.location.hash = h;
    }, hash);

  test("changing view moves focus to the new view's heading", async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Requests' })
      .click();
    await page.waitForFunction(() => document.activeElement?.id === 'log-title');
    assert.match(await focused(page), /^h1\S* Requests/);
    await go(`#/requests/${rig.seeded.okRequestId}`);
    await page.waitForFunction(() => document.activeElement?.id === 'req-title');
    await go('#/keys');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.match(await focused(page), /^h1\S* API keys/);
  });

  test('creating a named key moves focus to the new key; the list shows names and last use; a key is renamed in its row', async () => {
    await go('#/keys');
    await page.getByTestId('key-row').first().waitFor();
    const mine = page.getByTestId('key-row').first();
    // This page's own requests used the key: its last use is shown, not "never".
    assert.doesNotMatch((await mine.getByTestId('key-last-used').textContent()) ?? '', /never/);
    await page.getByLabel('Name (optional)').fill('CI runner');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.getByTestId('new-key-value').waitFor();
    await assertFocus(page, /^div\[new-key\]/);
    const fresh = (await page.getByTestId('new-key-value').textContent()) ?? '';
    const row = page.locator('[data-testid="key-row"]', { hasText: fresh.slice(0, 10) });
    await row.waitFor();
    assert.equal(await row.getByTestId('key-name').textContent(), 'CI runner');
    assert.equal(await row.getByTestId('key-last-used').textContent(), 'never');

    await page.getByRole('button', { name: `Rename key ${fresh.slice(0, 10)}` }).click();
    const input = page.getByLabel(`Name of key ${fresh.slice(0, 10)}`);
    const inputFocused = () => input.evaluate((el) => el === document.activeElement);
    await eventually(inputFocused);
    assert.equal(await inputFocused(), true);
    await input.fill('Nightly export');
    await input.press('Enter');
    await row.getByTestId('key-name').getByText('Nightly export').waitFor();
    const listed = (await (
      await fetch(`${rig.service.baseUrl}/api/keys`, { headers: { 'X-API-Key': fresh } })
    ).json()) as { prefix: string; name: string | null }[];
    assert.equal(listed.find((k) => k.prefix === fresh.slice(0, 10))?.name, 'Nightly export');
  });

  test('"Add wait" focuses the new step\'s input; Send request moves focus to the result', async () => {
    await go('#/playground');
    await page.getByTestId('playground-form').waitFor();
    await page.getByLabel('Target URL').fill(rig.seeded.articleUrl);
    await page.getByLabel(/^Render in a browser/).check();
    await page.getByRole('button', { name: 'Add wait' }).click();
    await assertFocus(page, /^input/);
    assert.equal(
      await page.evaluate(() =>
        document.activeElement?.closest('[data-kind]')?.getAttribute('data-kind'),
      ),
      'wait',
    );
    await page.keyboard.type('h1');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('preview-html').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.activeElement?.id === 'pg-result-title');
    assert.match(await focused(page), /^h2\S* Result/);
  });

  test('a screenshot result and the crawl detail have no scroll region out of reach of the keyboard', async () => {
    const shot = await fetch(
      `${rig.service.baseUrl}/api/scraper?${new URLSearchParams({ url: rig.seeded.articleUrl, render: 'true', screenshot: 'true' })}`,
      { headers: { 'X-API-Key': rig.service.apiKey } },
    );
    assert.equal(shot.status, 200);
    await shot.arrayBuffer();
    const problems: string[] = [];
    const views: [string, string][] = [
      [`#/requests/${shot.headers.get('x-request-id')}`, 'detail-params'],
      [`#/crawls/${encodeURIComponent(rig.seeded.crawlId)}`, 'crawl-pages'],
    ];
    for (const [hash, ready] of views) {
      await go(hash);
      await page.getByTestId(ready).waitFor();
      // The image or the page list has laid out (the audit looks at their final size).
      await page.waitForLoadState('networkidle');
      const { violations } = await new AxeBuilder({ page })
        .withRules(['scrollable-region-focusable'])
        .analyze();
      for (const v of violations) {
        problems.push(`${hash}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('the Crawls table at 375 px is wider than its box and shows the shade that says it scrolls', async () => {
    const narrow = await rig.browser.newContext({ viewport: { width: 375, height: 740 } });
    try {
      const p = await narrow.newPage();
      await signInByStorage(p, rig.service.apiKey);
      await p.goto(`${rig.service.baseUrl}/#/crawls`);
      await p.getByTestId('crawl-list').waitFor({ timeout: 30_000 });
      const wrap = await p.getByTestId('crawl-list').evaluate((table) => {
        const box = table.closest<HTMLElement>('.table-wrap') as HTMLElement;
        return {
          hidden: box.scrollWidth - box.clientWidth,
          shade: getComputedStyle(box).backgroundImage,
          attachment: getComputedStyle(box).backgroundAttachment,
        };
      });
      assert.ok(wrap.hidden > 0, 'the table is wider than the screen at 375 px');
      assert.equal(wrap.shade.match(/radial-gradient/g)?.length, 2, wrap.shade);
      // The covers scroll with the table, the shades stay at the box's edges.
      assert.match(wrap.attachment, /^local, local, scroll, scroll\b/);
    } finally {
      await narrow.close();
    }
  });
});
