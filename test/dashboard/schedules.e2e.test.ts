/**
 * Workflow schedules in the dashboard, end to end: real Chromium driving the built UI served
 * by the real service (seconds allowed in cron for this test, SCHEDULE_ALLOW_SECONDS), which
 * runs the schedule against a fixture page on loopback. Set a schedule with its readable
 * preview, see its next runs, change it, watch scheduled runs marked in the history, pause
 * it, see next and last run in the list (on the schedule's clock, labelled), resume and
 * remove it; a bad cron's preview says exactly what a save says (the service checks both). The UI is built into its own folder (DASHBOARD_DIR), so this file and the
 * main dashboard e2e may build at the same time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { buildDashboard, type DashboardBuild } from '../helpers/dashboard-build.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';
import { workflowClient } from '../helpers/workflow-http.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('dashboard: workflow schedules', () => {
  let service: TestService;
  let site: FixtureSite;
  let browser: Browser;
  let page: Page;
  let dashboard: DashboardBuild;
  let workflowId: string;

  before(async () => {
    dashboard = await buildDashboard();
    site = await startFixtureSite();
    site.html('/stock', '<p>In stock: 3</p>');
    service = await startService({
      credits: 1000,
      env: {
        DASHBOARD_DIR: dashboard.dir,
        SCHEDULE_ALLOW_SECONDS: 'true',
        SCHEDULE_MIN_INTERVAL_MS: '1000',
        SCHEDULE_POLL_MS: '100',
        JOB_POLL_MS: '50',
        SCHEDULE_DISABLE_AFTER_FAILURES: '2',
      },
    });
    const created = await workflowClient(service.baseUrl, service.apiKey)<{ id: string }>(
      'POST',
      '/api/workflow/create',
      { body: { name: 'Stock watch', config: { url: site.url('/stock') } } },
    );
    workflowId = created.body.id;
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${service.baseUrl}/`);
    await page.getByLabel('API key').fill(service.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('account-credits').waitFor();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
    await dashboard.remove();
  });

  const panel = () => page.getByTestId('schedule-panel');
  const openWorkflow = async () => {
    await page.goto(`${service.baseUrl}/#/workflows/${workflowId}`);
    await panel().waitFor();
  };

  test('sets a schedule with a readable preview of its words and next runs in its zone', async () => {
    await openWorkflow();
    await page.getByLabel('Cron (minute hour day month weekday)').fill('0 9 * * *');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    const preview = page.getByTestId('schedule-preview');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="schedule-preview"]')?.textContent?.includes('next:'),
    );
    const words = (await preview.textContent()) ?? '';
    assert.match(words, /^At 09:00 \(Europe\/Berlin\); next: /);
    assert.equal(words.match(/09:00/g)?.length, 4, 'the words and three next runs at 09:00');

    await page.getByTestId('schedule-save').click();
    await page.locator('[data-testid="schedule-state"][data-state="active"]').waitFor();
    const next = (await page.getByTestId('schedule-next-runs').textContent()) ?? '';
    assert.equal(next.match(/09:00/g)?.length, 5, `five next runs at 09:00 Berlin: ${next}`);
    await page.screenshot({
      path: `${ROOT}test-output/dashboard-schedules/set.png`,
      fullPage: true,
    });
  });

  test('a bad cron: the preview says what a save says, word for word, in our words', async () => {
    const preview = page.getByTestId('schedule-preview');
    for (const [cron, error] of [
      [
        '61 * * * *',
        'Invalid cron expression: the minute field "61" is not valid (use 0-59, *, a list 1,15, a range 1-5 or a step */10)',
      ],
      [
        '0 9 * *',
        'Invalid cron expression: expected 5 fields (minute hour day-of-month month day-of-week) or a shorthand such as @hourly, got 4',
      ],
    ] as const) {
      await page.getByLabel('Cron (minute hour day month weekday)').fill(cron);
      await page.waitForFunction(
        (text) => document.querySelector('[data-testid="schedule-preview"]')?.textContent === text,
        error,
      );
      await page.getByTestId('schedule-save').click();
      await page.getByTestId('schedule-error').getByText(error, { exact: true }).waitFor();
      assert.equal(await preview.textContent(), error);
    }
  });

  test('changed to every second, its runs appear in the history marked as scheduled', async () => {
    await page.getByLabel('Cron (minute hour day month weekday)').fill('* * * * * *');
    await page.getByTestId('schedule-save').click();
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="schedule-state"]')
        ?.textContent?.includes('* * * * * *'),
    );
    // Refresh until scheduled runs show up.
    for (let i = 0; i < 60; i++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      if ((await page.getByTestId('history-scheduled').count()) >= 2) break;
      await page.waitForTimeout(500);
    }
    const marks = await page.getByTestId('history-scheduled').allTextContents();
    assert.ok(marks.length >= 2, `scheduled runs in the history: ${marks.length}`);
    assert.ok(marks.every((m) => m === 'scheduled'));
  });

  test('pauses it: no next runs; the list shows it paused with its last run', async () => {
    await page.getByTestId('schedule-toggle').click();
    await page.locator('[data-testid="schedule-state"][data-state="paused"]').waitFor();
    assert.equal(await page.getByTestId('schedule-next-runs').textContent(), 'none');
    assert.equal(await page.getByTestId('schedule-toggle').textContent(), 'Resume');
    // Both times are on the schedule's clock, and say so.
    const labels = await page.getByTestId('schedule-state').locator('dt').allTextContents();
    assert.deepEqual(labels, ['Next runs (Europe/Berlin)', 'Last scheduled run (Europe/Berlin)']);

    await page.goto(`${service.baseUrl}/#/workflows`);
    const row = page.locator(`[data-workflow-id="${workflowId}"]`);
    await row.getByTestId('schedule-next').waitFor();
    assert.match((await row.getByTestId('schedule-next').textContent()) ?? '', /paused/);
    assert.match((await row.getByTestId('schedule-last').textContent()) ?? '', /success/);
    assert.equal(await row.getByTestId('schedule-zone').textContent(), 'Europe/Berlin');
    await page.screenshot({ path: `${ROOT}test-output/dashboard-schedules/list.png` });
  });

  test('a schedule that disabled itself after failed runs says why on the workflow page', async () => {
    const call = workflowClient(service.baseUrl, service.apiKey);
    // Nothing listens on port 9: each run fails (502, not charged).
    const broken = await call<{ id: string }>('POST', '/api/workflow/create', {
      body: { name: 'Broken target', config: { url: 'http://127.0.0.1:9/' } },
    });
    await call('PUT', `/api/workflow/${broken.body.id}/schedule`, {
      body: { cron: '* * * * * *' },
    });
    let enabled = true;
    for (let i = 0; i < 60 && enabled; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      enabled = (
        await call<{ enabled: boolean }>('GET', `/api/workflow/${broken.body.id}/schedule`)
      ).body.enabled;
    }
    assert.equal(enabled, false, 'the schedule disabled itself');
    // A fresh load: the page's workflow list predates this workflow.
    await page.goto(`${service.baseUrl}/#/workflows/${broken.body.id}`);
    await page.reload();
    await page.locator('[data-testid="schedule-state"][data-state="disabled"]').waitFor();
    const reason = (await page.getByTestId('schedule-disabled-reason').textContent()) ?? '';
    assert.match(reason, /^Disabled after 2 consecutive failed runs \(last: 502 /);
    assert.equal(await page.getByTestId('schedule-disabled-reason').getAttribute('role'), 'alert');
    await page.goto(`${service.baseUrl}/#/workflows`);
    const row = page.locator(`[data-workflow-id="${broken.body.id}"]`);
    assert.match((await row.getByTestId('schedule-next').textContent()) ?? '', /disabled/);
  });

  test('resumes it, then removes it', async () => {
    await openWorkflow();
    await page.getByTestId('schedule-toggle').click();
    await page.locator('[data-testid="schedule-state"][data-state="active"]').waitFor();
    await page.getByTestId('schedule-remove').click();
    await page.getByRole('button', { name: 'Set schedule' }).waitFor();
    assert.equal(await page.getByTestId('schedule-state').count(), 0);
    const answer = await workflowClient(service.baseUrl, service.apiKey)(
      'GET',
      `/api/workflow/${workflowId}/schedule`,
    );
    assert.equal(answer.status, 404);
  });
});
