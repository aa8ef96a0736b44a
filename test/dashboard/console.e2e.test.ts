/**
 * The console (issue 17) end to end: real Chromium on the built dashboard served by the real
 * service, with traffic on a loopback fixture site; each point of the console as a user would
 * go, at each of the four looks (1280x800 and 375x740, light and dark). One service, one
 * Chromium: each look gets a browser context of its own and an account of its own with its
 * own seeded traffic (its flows change keys, the secret, workflows and the log). The audit of
 * every view is console-audit-{wide,narrow}.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FixtureSite } from '../helpers/fixture-site.js';
import type { TestAccount, TestService } from '../helpers/service.js';
import { type ConsoleRig, startConsoleRig } from './console-rig.js';
import { LOOKS, type Seeded, signInByStorage } from './console-views.js';

type Look = (typeof LOOKS)[number];

describe('the console', () => {
  let service: TestService;
  let site: FixtureSite;
  let browser: Browser;

  let rig: ConsoleRig | undefined;

  before(async () => {
    rig = await startConsoleRig();
    ({ service, site, browser } = rig);
  });
  after(() => rig?.close());

  for (const look of LOOKS)
    describe(`at ${look.label} (${look.width}x${look.height})`, () => lookTests(look));

  function lookTests(look: Look) {
    let account: TestAccount;
    let seeded: Seeded;
    before(async () => {
      ({ account, seeded } = await (rig as ConsoleRig).seededAccount());
    });
    const wide = look.width >= 1100;

    /** A signed-in page at this look, clipboard allowed. */
    async function open(hash: string): Promise<{ page: Page; context: BrowserContext }> {
      const context = await browser.newContext({
        viewport: { width: look.width, height: look.height },
        colorScheme: look.scheme,
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: service.baseUrl,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signInByStorage(page, account.apiKey);
      await page.goto(`${service.baseUrl}/${hash}`);
      return { page, context };
    }
    const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

    test('the overview shows the balance, 30 days of credits, outcomes, problem targets and recent requests', async () => {
      const { page, context } = await open('#/');
      try {
        await page.getByTestId('recent-table').waitFor();
        const balance = (await (
          await fetch(`${service.baseUrl}/api/account`, {
            headers: { 'X-API-Key': account.apiKey },
          })
        ).json()) as { credits: number };
        assert.equal(
          (await page.getByTestId('overview-balance').textContent())?.replace(/\D/g, ''),
          String(balance.credits),
        );
        assert.equal(await page.getByTestId('usage-bar').count(), 30);
        // The last bar is today's: it has height, and its title says the credits.
        const today = page.getByTestId('usage-bar').last();
        assert.ok(Number(await today.getAttribute('height')) > 0);
        assert.match((await today.locator('title').textContent()) ?? '', /\d+ credits/);
        assert.match(
          (await page.getByTestId('overview-outcomes').textContent()) ?? '',
          /succeeded.*1 failed/,
        );
        assert.match(
          (await page.getByTestId('targets-failing').textContent()) ?? '',
          /127\.0\.0\.1/,
        );
        assert.ok((await page.getByTestId('recent-table').getByTestId('log-row').count()) >= 4);
      } finally {
        await context.close();
      }
    });

    test('the request log filters by status, pages by keyset, and a row opens its parameters and kept result', async () => {
      const { page, context } = await open('#/requests');
      try {
        await page.getByTestId('log-row').first().waitFor();
        await page.getByLabel('Status').selectOption('failed');
        await page.waitForURL(/status=failed/);
        // The filtered page replaces the unfiltered one: wait for rows that are all failed
        // (reading at once could see the old rows, or none while the new page loads).
        await page
          .waitForFunction(
            () => {
              const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="log-row"]')];
              return rows.length > 0 && rows.every((r) => r.dataset.status === 'failed');
            },
            undefined,
            { timeout: 20_000 },
          )
          .catch(() => undefined);
        const statuses = await page
          .getByTestId('log-row')
          .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.status));
        assert.deepEqual([...new Set(statuses)], ['failed']);
        await page.getByTestId('log-row').first().click();
        await page
          .getByTestId('detail-error')
          .getByText(/Failed to fetch the page/)
          .waitFor();
        assert.equal(await page.getByTestId('detail-no-result').count(), 1);

        // Keyset pages: fill the log beyond one page, then "Load older" brings the rest. Four
        // at a time (the account allows 10): one by one, the 52 took a third of this test.
        for (let i = 0; i < 52; i += 4) {
          const statuses = await Promise.all(
            [i, i + 1, i + 2, i + 3].map((n) =>
              fetch(
                `${service.baseUrl}/api/scraper?url=${encodeURIComponent(`${site.origin}/page?n=${n}`)}`,
                { headers: { 'X-API-Key': account.apiKey } },
              ).then(async (r) => {
                await r.arrayBuffer();
                return r.status;
              }),
            ),
          );
          assert.deepEqual(statuses, [200, 200, 200, 200]);
        }
        await page.goto(
          `${service.baseUrl}/#/requests?host=${encodeURIComponent(new URL(site.origin).host)}`,
        );
        await page.getByTestId('log-more').waitFor();
        assert.equal(await page.getByTestId('log-row').count(), 50);
        await page.getByTestId('log-more').click();
        await page.getByTestId('log-more').waitFor({ state: 'detached' });
        const ids = await page
          .getByTestId('log-row')
          .locator('a')
          .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        assert.ok(ids.length > 50);
        assert.equal(new Set(ids).size, ids.length);

        await page.goto(`${service.baseUrl}/#/requests/${seeded.okRequestId}`);
        await page
          .getByTestId('preview-html')
          .getByText(/Console fixture/)
          .first()
          .waitFor();
        assert.match((await page.getByTestId('detail-params').textContent()) ?? '', /"url": "http/);
        await page.getByRole('button', { name: 'Copy as curl' }).click();
        assert.match(await clipboard(page), /curl -G .*\/api\/scraper/);
      } finally {
        await context.close();
      }
    });

    test('keys: a new key is shown once and works, rotate and revoke; the webhook secret is revealed and rotated', async () => {
      const { page, context } = await open('#/keys');
      try {
        await page.getByTestId('key-row').first().waitFor();
        assert.match(
          (await page.getByTestId('key-row').first().textContent()) ?? '',
          /this session/,
        );
        await page.getByRole('button', { name: 'Create a key' }).click();
        const fresh = (await page.getByTestId('new-key-value').textContent()) ?? '';
        assert.match(fresh, /^pgk_/);
        const works = async (key: string) =>
          (await fetch(`${service.baseUrl}/api/account`, { headers: { 'X-API-Key': key } })).status;
        assert.equal(await works(fresh), 200);
        // The list is read again after the creation: wait for it rather than count at once.
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid="key-row"]').length === 2,
        );
        await page.getByRole('button', { name: 'Done' }).click();
        assert.equal(await page.getByTestId('new-key').count(), 0);

        await page.getByRole('button', { name: `Rotate key ${fresh.slice(0, 10)}` }).click();
        const rotated = (await page.getByTestId('new-key-value').textContent()) ?? '';
        assert.notEqual(rotated, fresh);
        assert.equal(await works(fresh), 403);
        assert.equal(await works(rotated), 200);
        await page.getByRole('button', { name: `Revoke key ${rotated.slice(0, 10)}` }).click();
        await page.getByRole('button', { name: 'Yes, revoke' }).click();
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid="key-row"]').length === 1,
        );
        assert.equal(await works(rotated), 403);

        const secret = page.getByTestId('secret-value');
        assert.doesNotMatch((await secret.textContent()) ?? '', new RegExp(account.webhookSecret));
        await page.getByRole('button', { name: 'Reveal' }).click();
        await secret.getByText(account.webhookSecret).waitFor();
        await page.getByRole('button', { name: 'Rotate secret' }).click();
        await page.getByRole('button', { name: 'Yes, rotate' }).click();
        await page.waitForFunction(
          (old) =>
            !document.querySelector('[data-testid="secret-value"]')?.textContent?.includes(old),
          account.webhookSecret,
        );
        const shown = (await secret.textContent()) ?? '';
        const api = (await (
          await fetch(`${service.baseUrl}/api/account/webhook-secret`, {
            headers: { 'X-API-Key': account.apiKey },
          })
        ).json()) as { webhookSecret: string };
        assert.equal(shown, api.webhookSecret);
        await page.getByTestId('copy-snippet').click();
        assert.match(await clipboard(page), /createHmac\('sha256'/);
      } finally {
        await context.close();
      }
    });

    test('the playground: beside its result when wide (below when narrow), one output, browser options switch render on, chips, field errors, timer and cancel, curl, save as workflow', async () => {
      const { page, context } = await open('#/playground');
      try {
        const url = page.getByLabel('Target URL');
        await page.getByRole('button', { name: 'Send request' }).click();
        await page.getByTestId('error-url').waitFor();
        assert.equal(await url.getAttribute('aria-invalid'), 'true');
        await url.fill(`${site.origin}/article`);
        assert.equal(await page.getByTestId('error-url').count(), 0, 'fixed: the error goes');

        // One output at a time; a screenshot switches render on and says why.
        await page.getByLabel('Markdown').check();
        await page.getByLabel('Screenshot (visible area)').check();
        assert.equal(await page.getByLabel('Markdown').isChecked(), false);
        assert.equal(await page.getByLabel(/^Render in a browser/).isChecked(), true);
        await page
          .getByTestId('render-note')
          .getByText(/screenshots need a browser/)
          .waitFor();
        await page.getByLabel('HTML', { exact: true }).check();
        await page.getByLabel(/^Render in a browser/).uncheck();
        await page.getByRole('button', { name: 'font', exact: true }).click();
        assert.equal(
          await page
            .getByRole('button', { name: 'font', exact: true })
            .getAttribute('aria-pressed'),
          'true',
        );
        assert.equal(await page.getByLabel(/^Render in a browser/).isChecked(), true);
        await page.getByRole('button', { name: 'font', exact: true }).click();
        await page.getByLabel(/^Render in a browser/).uncheck();

        // A server error lands next to its field and goes when that field changes.
        await page.getByLabel('Window width').fill('5000');
        await page.getByRole('button', { name: 'Send request' }).click();
        await page
          .getByTestId('error-window_width')
          .getByText(/window_width/)
          .waitFor();
        await page.getByLabel('Window width').fill('');
        assert.equal(await page.getByTestId('error-window_width').count(), 0);
        await page.getByLabel(/^Render in a browser/).uncheck();

        await page.getByText('curl command').click();
        await page.getByRole('button', { name: 'Copy as curl' }).click();
        assert.match(await clipboard(page), /--data-urlencode 'url=http:\/\/127\.0\.0\.1/);

        await page.getByRole('button', { name: 'Send request' }).click();
        await page.getByTestId('preview-html').waitFor({ timeout: 60_000 });
        const form = await page.getByTestId('playground-form').boundingBox();
        const result = await page.getByTestId('result-preview').boundingBox();
        assert.ok(form && result);
        if (wide) {
          // Wide: the result is to the right of the form and starts in the window.
          assert.ok(result.x > form.x + form.width - 1, 'beside the form');
          assert.ok(result.y < look.height, `result starts at ${result.y}`);
        } else {
          // Narrow: the result comes below the form, scrolled into view.
          assert.ok(result.y >= form.y + form.height - 1, 'below the form');
          const top = await page
            .getByTestId('result-preview')
            .evaluate((el) => el.getBoundingClientRect().top);
          assert.ok(top >= 0 && top < look.height, `result at ${top}px`);
        }
        await page.getByTestId('copy-result').click();
        assert.match(await clipboard(page), /Console fixture/);
        const download = page.waitForEvent('download');
        await page.getByTestId('download-result').click();
        assert.equal((await download).suggestedFilename(), 'page.html');

        // A slow page: the timer runs and Cancel stops waiting.
        await url.fill(`${site.origin}/slow?ms=8000`);
        await page.getByRole('button', { name: 'Send request' }).click();
        await page
          .getByTestId('pg-elapsed')
          .getByText(/^\d+\.\d$/)
          .waitFor();
        await page.getByRole('button', { name: 'Cancel' }).click();
        await page.getByTestId('pg-cancelled').waitFor();

        await url.fill(`${site.origin}/article`);
        await page.getByRole('button', { name: 'Save as workflow' }).click();
        await page.getByLabel('Workflow name').fill('From the playground');
        await page.getByRole('button', { name: 'Save workflow' }).click();
        await page.getByTestId('workflow-title').getByText('From the playground').waitFor();
      } finally {
        await context.close();
      }
    });

    test('the workflow list: aligned columns, search, sort, Run and Duplicate; a history row opens its request', async () => {
      await fetch(`${service.baseUrl}/api/workflow/create`, {
        method: 'POST',
        headers: { 'X-API-Key': account.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Zeta list check', config: { url: `${site.origin}/page` } }),
      });
      const { page, context } = await open('#/workflows');
      try {
        const rows = page.getByTestId('workflow-row');
        await rows.filter({ hasText: 'Zeta list check' }).waitFor();
        // Aligned: each column starts at the same x in every row.
        const lefts = await rows.evaluateAll((trs) =>
          trs.map((tr) => [...tr.children].map((td) => Math.round(td.getBoundingClientRect().x))),
        );
        for (const l of lefts) assert.deepEqual(l, lefts[0]);
        await page.getByLabel('Search workflows').fill('zeta');
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid="workflow-row"]').length === 1,
        );
        await page.getByLabel('Search workflows').fill('');
        await page.getByLabel('Sort by').selectOption('name');
        const names = await rows.locator('.wf-name').allTextContents();
        assert.deepEqual(
          names,
          [...names].sort((a, b) => a.localeCompare(b)),
        );

        const article = rows.filter({ hasText: 'Console article' });
        await article.getByRole('button', { name: 'Run Console article' }).click();
        await article
          .getByTestId('row-status')
          .getByText(/Done: target 200/)
          .waitFor();
        await article.getByRole('button', { name: 'Duplicate Console article' }).click();
        const copyRow = rows.filter({
          has: page.getByRole('link', { name: 'Console article (copy)', exact: true }),
        });
        await copyRow.waitFor();
        // The original row says where its copy went.
        await article
          .first()
          .getByTestId('row-status')
          .getByText('Duplicated as "Console article (copy)"')
          .waitFor();
        const listed = (await (
          await fetch(`${service.baseUrl}/api/workflow`, {
            headers: { 'X-API-Key': account.apiKey },
          })
        ).json()) as { name: string }[];
        assert.equal(
          listed.filter((w) => w.name === 'Console article (copy)').length,
          1,
          JSON.stringify(listed.map((w) => w.name)),
        );
        assert.equal(await copyRow.count(), 1);

        await page.getByRole('link', { name: 'Console article', exact: true }).click();
        await page
          .getByTestId('workflow-curl')
          .getByText(/workflow_id=/)
          .waitFor({ state: 'attached' });
        await page.getByTestId('history-open').first().click();
        await page.getByTestId('request-detail').waitFor();
        await page
          .getByTestId('preview-html')
          .getByText(/Console fixture/)
          .first()
          .waitFor();
      } finally {
        await context.close();
      }
    });

    test('sign-in: kept in every tab when ticked, this tab only otherwise; signing out signs out the other tabs', async () => {
      const context = await browser.newContext({
        viewport: { width: look.width, height: look.height },
        colorScheme: look.scheme,
      });
      try {
        const first = await context.newPage();
        await first.goto(`${service.baseUrl}/`);
        await first.getByLabel('API key').fill(account.apiKey);
        await first.getByRole('button', { name: 'Sign in' }).click();
        await first.getByTestId('account-credits').waitFor();
        const second = await context.newPage();
        await second.goto(`${service.baseUrl}/`);
        await second.getByTestId('signin-form').waitFor();
        await first.getByRole('button', { name: 'Sign out' }).click();

        await first.getByLabel('API key').fill(account.apiKey);
        await first.getByLabel(/^Keep me signed in/).check();
        await first.getByRole('button', { name: 'Sign in' }).click();
        await first.getByTestId('account-credits').waitFor();
        const third = await context.newPage();
        await third.goto(`${service.baseUrl}/`);
        await third.getByTestId('account-credits').waitFor();
        assert.match(await third.title(), /Overview · pagegrab/);
        assert.equal(
          await third.getByRole('link', { name: 'API docs' }).getAttribute('href'),
          '/docs',
        );
        await first.getByRole('button', { name: 'Sign out' }).click();
        await third.getByTestId('signin-form').waitFor();
      } finally {
        await context.close();
      }
    });
  }
});
