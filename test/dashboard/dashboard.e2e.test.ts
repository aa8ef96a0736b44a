/**
 * The dashboard end to end: real Chromium driving the built UI served by the real service,
 * which scrapes a fixture page on loopback. Each test leans on the state the one before it
 * left (one signed-in page, one workflow), in the order a user would go.
 * Screenshots of the main views land in test-output/dashboard/ for a human to look at.
 */
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { FORM_FIELDS } from '../../dashboard/src/lib/config-form.js';
import { DEFAULTS } from '../../src/config.js';
import { CHROMIUM_ARGS } from '../../src/scrape/engines/browser/chromium-process.js';
import { buildDashboard, type DashboardBuild } from '../helpers/dashboard-build.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService } from '../helpers/service.js';
import { lowContrastTexts, tabWalk, unlabelledControls } from './page-checks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = `${ROOT}test-output/dashboard/`;

/** The page the workflow scrapes: its instructions type into #q and click #go. */
const FORM_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Search fixture</title></head>
<body><main><article>
<h1>Search fixture</h1>
<p>This page has a search form. The workflow types a word into it and presses the button,
and the answer appears below. Enough prose here for a reader-mode extractor to keep it.</p>
<p>Second paragraph with a <a href="/page">link to the plain page</a> and <strong>bold text</strong>.</p>
<form onsubmit="return false"><label for="q">Query</label><input id="q">
<button id="go" type="button"
  onclick="document.getElementById('result').textContent = 'Result for ' + document.getElementById('q').value">Go</button>
</form>
<p id="result">No search yet</p>
</article></main></body></html>`;

type Service = Awaited<ReturnType<typeof startService>>;

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('dashboard', () => {
  let service: Service;
  let site: FixtureSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dashboard: DashboardBuild;
  /** Every URL the dashboard asked for: all must be the service's own. */
  const requested: string[] = [];
  /** API calls the main page made without the X-API-Key header. */
  const keyless: string[] = [];
  /** What the page's Content-Security-Policy refused: the dashboard must need nothing it forbids. */
  const refused: string[] = [];

  before(async () => {
    dashboard = await buildDashboard();
    // Old shots would pass for new ones when a test stops before its screenshot.
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    site = await startFixtureSite();
    site.html('/form', FORM_PAGE);
    service = await startService({
      allowPrivateNetworks: true,
      credits: 10_000,
      env: { DASHBOARD_DIR: dashboard.dir },
    });
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('request', (r) => {
      requested.push(r.url());
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/') && !r.headers()['x-api-key']) keyless.push(r.url());
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    page.setDefaultTimeout(20_000);
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
    await dashboard?.remove();
  });

  const shot = (name: string, p: Page = page) =>
    p.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
  const credits = async () =>
    Number((await text(page.getByTestId('account-credits'))).replace(/\D/g, ''));

  test('a wrong API key is refused with the server text', async () => {
    await page.goto(`${service.baseUrl}/`);
    await page.getByLabel('API key').fill('not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await assert.doesNotReject(
      page.getByTestId('signin-error').getByText('Invalid API key!').waitFor(),
    );
    await shot('01-signin-error');
  });

  test('signing in shows the account name and its credit balance', async () => {
    await page.getByLabel('API key').fill(service.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('account-credits').waitFor();
    assert.equal(await credits(), 10_000);
    assert.ok((await text(page.getByTestId('account-name'))).length > 0);
    const stored = await page.evaluate(() => sessionStorage.getItem('pagegrab.apiKey'));
    assert.equal(stored, service.apiKey);
  });

  test('creates a workflow with ordered instructions', async () => {
    // Signing in lands on the overview; the workflows are one link away.
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name').fill('Search fixture');
    await page.getByLabel('Target URL').fill(site.url('/form'));
    await page.getByLabel(/^Render in a browser/).check();
    for (const kind of ['delay', 'wait', 'fill', 'click', 'wait']) {
      await page.getByRole('button', { name: `Add ${kind}` }).click();
    }
    // The delay was added first; move it to the end, then remove it again.
    for (let i = 1; i <= 4; i++)
      await page.getByRole('button', { name: `Move step ${i} down` }).click();
    assert.equal(await page.locator('#step-1-kind, [id$="-kind"]').first().inputValue(), 'wait');
    await page.getByRole('button', { name: 'Remove step 5' }).click();
    const steps = page.getByTestId('instruction-step');
    assert.equal(await steps.count(), 4);
    await steps.nth(0).getByLabel('Selector').fill('#q');
    await steps.nth(1).getByLabel('Selector').fill('#q');
    await steps.nth(1).getByLabel('Text').fill('pagegrab');
    await steps.nth(2).getByLabel('Selector').fill('#go');
    await steps.nth(3).getByLabel('Selector').fill('#result');
    for (const type of ['font', 'media'])
      await page.getByRole('button', { name: type, exact: true }).click();
    await shot('02-create-form');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByTestId('workflow-title').getByText('Search fixture').waitFor();
    const saved = await text(page.locator('details.config pre'));
    assert.match(saved ?? '', /"fill"/);
    assert.match(saved ?? '', /"block_resources": "media, font"/);
  });

  test('a bad URL shows the server 400 text beside the form', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Target URL').fill('ftp://nope');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const error = page.getByTestId('form-error');
    await error.waitFor();
    assert.match(await text(error), /url/i);
    await shot('03-edit-form-error');
  });

  test('edits the name and config through the form', async () => {
    await page.getByLabel('Target URL').fill(site.url('/form'));
    await page.getByLabel('Name', { exact: true }).fill('Search fixture (edited)');
    await page.getByLabel('Block ads').check();
    await page.getByLabel('Window width').fill('800');
    await page.getByLabel('Window height').fill('600');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-title').getByText('Search fixture (edited)').waitFor();
    const saved = await text(page.locator('details.config pre'));
    assert.match(saved, /"block_ads": true/);
    assert.match(saved, /"window_width": 800/);
  });

  test('renames the workflow', async () => {
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name').fill('Search fixture');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByTestId('workflow-title').getByText('Search fixture', { exact: true }).waitFor();
  });

  test('run now previews HTML source after the instructions ran', async () => {
    const before = await credits();
    await page.getByLabel('Output').selectOption('html');
    await page.getByRole('button', { name: 'Run now' }).click();
    const html = page.getByTestId('preview-html');
    await html.waitFor({ timeout: 60_000 });
    assert.match(await text(html), /Result for pagegrab/);
    // Scraped markup is text in the dashboard, never elements.
    assert.equal(await page.locator('#go').count(), 0);
    assert.equal(await text(page.getByTestId('target-status')), '200');
    const used = Number(await text(page.getByTestId('credits-used')));
    assert.ok(used > 0);
    await page.waitForFunction((b) => {
      const el = document.querySelector('[data-testid="account-credits"]');
      return el !== null && Number(el.textContent?.replace(/\D/g, '')) < b;
    }, before);
    assert.equal(await credits(), before - used);
    await shot('04-run-html');
  });

  test('run now previews rendered Markdown', async () => {
    await page.getByLabel('Output').selectOption('markdown');
    await page.getByRole('button', { name: 'Run now' }).click();
    const md = page.getByTestId('preview-markdown');
    await md.waitFor({ timeout: 60_000 });
    assert.ok((await md.locator('h1, h2, p').count()) > 0);
    assert.match(await text(md), /Search fixture|search form/);
    await shot('05-run-markdown');
  });

  test('run now previews the screenshot', async () => {
    await page.getByLabel('Output').selectOption('screenshot');
    await page.getByRole('button', { name: 'Run now' }).click();
    const img = page.getByTestId('preview-screenshot');
    await img.waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>('[data-testid="preview-screenshot"]');
      return el?.complete === true && el.naturalWidth > 0;
    });
    const size = await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]);
    assert.deepEqual(size, [800, 600]);
    assert.match((await img.getAttribute('src')) ?? '', /^blob:/);
    await shot('06-run-screenshot');
  });

  test('the history lists every run with its output type', async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByTestId('history-row');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="history-row"]').length >= 3,
    );
    const table = await text(page.getByTestId('history-table'));
    for (const output of ['html', 'markdown', 'screenshot'])
      assert.match(table, new RegExp(output));
    assert.equal(await rows.first().getAttribute('data-status'), 'success');
    assert.deepEqual(await lowContrastTexts(page), []);
    // The checker itself: grey #999 text on the white history panel is under 4.5:1.
    await page.evaluate(() => {
      const probe = document.createElement('td');
      probe.id = 'contrast-probe';
      probe.style.color = '#999';
      probe.textContent = 'faint';
      document.querySelector('[data-testid="history-row"]')?.append(probe);
    });
    assert.match((await lowContrastTexts(page)).join('\n'), /"faint" 2\.\d\d/);
    await page.evaluate(() => document.getElementById('contrast-probe')?.remove());
    await shot('07-history');
  });

  test('a webhook run shows the confirmation, then the delivery state in the history', async () => {
    let hooks = 0;
    site.route('/hook', (req, res) => {
      req.resume();
      req.on('end', () => {
        hooks++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel(/^Webhook URL/).fill(site.url('/hook'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-title').waitFor();
    assert.match(await text(page.locator('details.config pre')), /"webhook_url": "http/);
    await page.getByLabel('Output').selectOption('saved');
    await page.getByRole('button', { name: 'Run now' }).click();
    const notice = page.getByTestId('preview-webhook');
    await notice.waitFor({ timeout: 60_000 });
    assert.match(await text(notice), /Webhook sent successfully/);
    const webhookCell = page.getByTestId('history-row').first().getByTestId('history-webhook');
    for (let i = 0; !/^delivered/.test(await text(webhookCell)); i++) {
      assert.ok(i < 100, `webhook state stuck at: ${await text(webhookCell)}`);
      await sleep(200);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    assert.match(await text(webhookCell), /delivered \(1 attempt\)/);
    assert.ok(hooks >= 1);
    // The confirmation carries no charge; Refresh brings the charge to the figures.
    assert.equal(await page.getByTestId('credits-used').count(), 0);
    const charged = (await page.locator('td[data-label="Credits"]').allTextContents()).map(Number);
    assert.equal(charged.length, 4);
    const total = charged.reduce((a, b) => a + b, 0);
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="workflow-credits-spent"]')?.textContent === t,
      String(total),
    );
    await page.waitForFunction(
      (b) => document.querySelector('[data-testid="account-credits"]')?.textContent === b,
      `${(10_000 - total).toLocaleString('en-US')} credits`,
    );
    await shot('08-webhook-history');
    // An emptied field leaves the config (the edit sends it as null in the merge patch).
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel(/^Webhook URL/).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-title').waitFor();
    assert.doesNotMatch(await text(page.locator('details.config pre')), /webhook_url/);
  });

  test('archiving moves the workflow to the archived tab, unarchiving moves it back', async () => {
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await page.getByRole('link', { name: /Archived workflows/ }).click();
    const archivedTab = page.getByRole('tab', { name: /Archived/ });
    assert.equal(await archivedTab.getAttribute('aria-selected'), 'true');
    await page.getByTestId('panel-archived').getByText('Search fixture').waitFor();
    await shot('09-archived-tab');
    // Keyboard: arrow left from the archived tab selects the active one.
    await archivedTab.focus();
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('panel-active').waitFor();
    assert.equal(await page.getByTestId('panel-active').getByTestId('workflow-row').count(), 0);
    await page.getByRole('tab', { name: /Archived/ }).click();
    await page.getByTestId('panel-archived').getByRole('link', { name: 'Search fixture' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.getByRole('button', { name: 'Archive' }).waitFor();
    await page.getByRole('link', { name: /Active workflows/ }).click();
    const row = page.getByTestId('panel-active').getByTestId('workflow-row');
    await row.waitFor();
    assert.equal(await row.count(), 1);
    assert.notEqual(await text(row.getByTestId('workflow-credits')), '0');
    await shot('10-active-list');
  });

  test('the playground shows the curl command with the key as a variable, and runs', async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByLabel('Target URL').fill('ftp://nope');
    await page.getByRole('button', { name: 'Send request' }).click();
    assert.match(await text(page.getByTestId('form-error')), /url/i);
    await page.getByLabel('Target URL').fill(site.url('/page'));
    await page.getByLabel('Markdown').check();
    const curl = await text(page.getByTestId('curl-command'));
    assert.match(curl, /X-API-Key: \$PAGEGRAB_API_KEY/);
    assert.ok(!curl.includes(service.apiKey));
    assert.match(curl, /--data-urlencode 'markdown=true'/);
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('preview-markdown').waitFor({ timeout: 60_000 });
    await shot('11-playground');
  });

  test('at 375 px wide nothing overflows sideways', async () => {
    const mobile = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
    });
    mobile.on('request', (r) => requested.push(r.url()));
    const m = await mobile.newPage();
    try {
      await m.goto(`${service.baseUrl}/`);
      await m.getByLabel('API key').fill(service.apiKey);
      await m.getByRole('button', { name: 'Sign in' }).click();
      await m.getByRole('link', { name: 'Workflows', exact: true }).click();
      await m.getByTestId('workflow-row').first().waitFor();
      const overflow = () =>
        m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok((await overflow()) <= 0, 'workflow list overflows');
      await shot('12-mobile-list', m);
      await m.getByTestId('workflow-row').first().getByRole('link').first().click();
      await m.getByTestId('history-table').waitFor();
      assert.ok((await overflow()) <= 0, 'workflow view overflows');
      // Records stack as label/value lines: the last column is on screen, not scrolled away.
      const webhookCell = m.getByTestId('history-webhook').first();
      const box = await webhookCell.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `webhook cell at ${box?.x}`);
      assert.match(
        await webhookCell.evaluate((el) => getComputedStyle(el, '::before').content),
        /Webhook/,
      );
      await shot('13-mobile-workflow', m);
      await m.getByRole('link', { name: 'Edit' }).click();
      await m.getByTestId('instruction-step').first().waitFor();
      assert.ok((await overflow()) <= 0, 'edit form overflows');
      await shot('14-mobile-edit', m);
      await m.getByRole('link', { name: 'Playground' }).click();
      await m.getByLabel('Target URL').fill(site.url('/page'));
      await m.getByRole('button', { name: 'Send request' }).click();
      await m.getByTestId('preview-html').waitFor({ timeout: 60_000 });
      assert.ok((await overflow()) <= 0, 'playground overflows');
      // The result is brought into view below the long form.
      const top = await m
        .getByTestId('result-preview')
        .evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(top >= 0 && top < 740, `result at ${top}px`);
      await shot('15-mobile-playground', m);
    } finally {
      await mobile.close();
    }
  });

  test('keyboard alone: controls are labelled, Tab reaches each one, Enter and Space act', async () => {
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByRole('link', { name: 'New workflow' }).focus();
    await page.keyboard.press('Enter');
    const name = page.getByLabel('Name', { exact: true });
    await name.waitFor();
    await page.getByRole('button', { name: 'Add fill' }).focus();
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('instruction-step').count(), 1);
    assert.deepEqual(await unlabelledControls(page), []);
    // A control for every config field, of the kind the issue names.
    const kinds = await page.evaluate(
      (fields) =>
        fields.map((f) => {
          const el = document.getElementById(`wf-${f}`) as HTMLInputElement | null;
          return `${f}:${el ? (el.type ?? el.tagName) : 'missing'}`;
        }),
      FORM_FIELDS.filter(
        (f) =>
          ![
            'instructions',
            'screenshot',
            'screenshot_full_page',
            'markdown',
            'block_resources',
            // outputs too: a radio each, the rules' box only while that output is chosen
            'extract_rules',
            'structured_data',
            'json_schema',
            'json_prompt',
            'summary',
            'change_tracking',
          ].includes(f),
      ),
    );
    for (const f of ['render', 'block_ads'])
      assert.ok(kinds.includes(`${f}:checkbox`), kinds.join(' '));
    // The output is one choice (radios); resource types are toggle chips.
    const outputs = await page
      .locator('input[name="wf-output"]')
      .evaluateAll((els) => els.map((el) => `${el.id}:${(el as HTMLInputElement).type}`));
    assert.deepEqual(outputs, [
      'wf-out-html:radio',
      'wf-out-markdown:radio',
      'wf-out-screenshot:radio',
      'wf-out-screenshot_full_page:radio',
      'wf-out-extract:radio',
      'wf-out-structured_data:radio',
      'wf-out-json:radio',
      'wf-out-summary:radio',
      'wf-out-change_tracking:radio',
    ]);
    // The model's JSON output: its prompt (started with an example) and schema boxes while
    // chosen, gone with another output.
    await page.locator('#wf-out-json').check();
    assert.equal(await page.locator('#wf-json_prompt').inputValue(), 'The title of the page');
    assert.equal(await page.locator('#wf-json_schema').evaluate((el) => el.tagName), 'TEXTAREA');
    assert.deepEqual(await unlabelledControls(page), []);
    // Changes since the previous scrape: the same boxes, optional (no example prompt).
    await page.locator('#wf-out-change_tracking').check();
    assert.equal(await page.locator('#wf-json_prompt').inputValue(), '');
    assert.deepEqual(await unlabelledControls(page), []);
    await page.locator('#wf-out-html').check();
    assert.equal(await page.locator('#wf-json_prompt').count(), 0);
    assert.equal(await page.getByTestId('resource-chips').getByRole('button').count(), 11);
    assert.ok(kinds.includes('proxy_type:select-one'), kinds.join(' '));
    assert.ok(kinds.includes('wait_until:select-one'), kinds.join(' '));
    assert.ok(!kinds.some((k) => k.endsWith(':missing')), kinds.join(' '));
    const walk = await tabWalk(page);
    assert.deepEqual(walk.missed, []);
    assert.ok(walk.reached > 30, `only ${walk.reached} stops`);
    await page.getByRole('button', { name: 'Remove step 1' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByTestId('instruction-step').count(), 0);
    await name.focus();
    await page.keyboard.type('Keyboard workflow');
    await page.keyboard.press('Tab');
    await page.keyboard.type(site.url('/page'));
    await page.keyboard.press('Enter'); // implicit submission from a text field
    await page.getByTestId('workflow-title').getByText('Keyboard workflow').waitFor();
  });

  test('the active list is newest first with name, URL, last status, last run and credits', async () => {
    await page.getByRole('link', { name: /Active workflows/ }).click();
    const rows = page.getByTestId('panel-active').getByTestId('workflow-row');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="workflow-row"]').length === 2,
    );
    const first = await text(rows.nth(0));
    const second = await text(rows.nth(1));
    assert.match(first, /^Keyboard workflow/);
    assert.match(first, /\/page/);
    assert.match(first, /never run/);
    assert.equal(await text(rows.nth(0).getByTestId('workflow-credits')), '0');
    assert.match(second, /^Search fixture/);
    assert.doesNotMatch(second, /never/);
    // The last statuses come from the request log, read after the list: wait for them.
    const lastStatus = rows.nth(1).getByTestId('workflow-last-status');
    await lastStatus.getByText(/success|failed/).waitFor();
    assert.match(await text(lastStatus), /success|failed/);
    await shot('16-two-workflows');
  });

  test('the dark colour scheme keeps text readable', async () => {
    const dark = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'dark',
    });
    dark.on('request', (r) => requested.push(r.url()));
    const d = await dark.newPage();
    try {
      await d.goto(`${service.baseUrl}/`);
      await d.getByLabel('API key').fill(service.apiKey);
      await d.getByRole('button', { name: 'Sign in' }).click();
      await d.getByRole('link', { name: 'Workflows', exact: true }).click();
      await d.getByRole('link', { name: 'Search fixture' }).click();
      await d.getByTestId('history-table').waitFor();
      const bg = await d.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      assert.notEqual(bg, 'rgb(246, 247, 249)', 'the dark palette applies');
      assert.deepEqual(await lowContrastTexts(d), []);
      await shot('17-dark-workflow', d);
      await d.getByRole('link', { name: 'Edit' }).click();
      await d.getByTestId('instruction-step').first().waitFor();
      assert.deepEqual(await lowContrastTexts(d), []);
      await shot('18-dark-edit', d);
    } finally {
      await dark.close();
    }
  });

  test('the new step kinds and wait_until are saved as entered, run, and an edit keeps them', async () => {
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Scroll fixture');
    await page.getByLabel('Target URL').fill(site.url('/form'));
    await page.getByLabel(/^Render in a browser/).check();
    await page.getByLabel(/^Wait until/).selectOption('networkidle');
    for (const kind of ['press', 'scroll', 'evaluate', 'infinite scroll'])
      await page.getByRole('button', { name: `Add ${kind}`, exact: true }).click();
    const steps = page.getByTestId('instruction-step');
    await steps.nth(0).getByLabel('Key', { exact: true }).fill('Tab');
    await steps.nth(1).getByLabel('Direction').selectOption('up');
    const script = "document.getElementById('result').textContent = 'Set by evaluate'";
    await steps.nth(2).getByLabel('Script').fill(script);
    await steps.nth(3).getByLabel('Max scrolls').fill('3');
    await steps
      .nth(3)
      .getByLabel(/^Delay after each/)
      .fill('0');
    assert.deepEqual(await unlabelledControls(page), []);
    await shot('19-new-step-kinds');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByTestId('workflow-title').getByText('Scroll fixture').waitFor();
    const saved = JSON.parse(await text(page.locator('details.config pre')));
    assert.equal(saved.wait_until, 'networkidle');
    const instructions = [
      { press: 'Tab' },
      { scroll: { direction: 'up', selector: null } },
      { evaluate: script },
      { infinite_scroll: { max_scrolls: 3, delay: 0 } },
    ];
    assert.deepEqual(saved.instructions, instructions);

    await page.getByLabel('Output').selectOption('html');
    await page.getByRole('button', { name: 'Run now' }).click();
    const html = page.getByTestId('preview-html');
    await html.waitFor({ timeout: 60_000 });
    assert.match(await text(html), /Set by evaluate/);

    // The form shows what was saved; a name change sends the name alone.
    await page.getByRole('link', { name: 'Edit' }).click();
    assert.equal(await page.getByLabel(/^Wait until/).inputValue(), 'networkidle');
    assert.equal(await steps.nth(0).getByLabel('Key', { exact: true }).inputValue(), 'Tab');
    assert.equal(await steps.nth(1).getByLabel('Direction').inputValue(), 'up');
    assert.equal(await steps.nth(2).getByLabel('Script').inputValue(), script);
    assert.equal(await steps.nth(3).getByLabel('Max scrolls').inputValue(), '3');
    await page.getByLabel('Name', { exact: true }).fill('Scroll fixture (edited)');
    const renamed = page.waitForRequest((r) => r.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.deepEqual((await renamed).postDataJSON(), { name: 'Scroll fixture (edited)' });
    await page.getByTestId('workflow-title').getByText('Scroll fixture (edited)').waitFor();
    assert.deepEqual(JSON.parse(await text(page.locator('details.config pre'))), saved);
  });

  test('a saved step of a kind the dashboard does not know is shown read-only and sent back as it was', async () => {
    // As a newer server would list it: a step kind this dashboard has never heard of.
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2] ?? '');
    const hover = { hover: '#go' };
    const isList = (u: URL) => u.pathname === '/api/workflow';
    await page.route(isList, async (route) => {
      const response = await route.fetch();
      const list = (await response.json()) as { id: string; config: { instructions: unknown[] } }[];
      for (const w of list) if (w.id === id) w.config.instructions.splice(1, 0, hover);
      await route.fulfill({ response, json: list });
    });
    try {
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.reload();
      const kept = page.getByTestId('instruction-step').nth(1);
      await kept.waitFor();
      assert.equal(await kept.getAttribute('data-kind'), 'opaque');
      const json = kept.getByLabel('Step 2', { exact: true });
      assert.equal(await json.evaluate((el: HTMLTextAreaElement) => el.readOnly), true);
      assert.deepEqual(JSON.parse(await json.inputValue()), hover);
      assert.deepEqual(await unlabelledControls(page), []);
      await shot('20-kept-step');
      await page.getByRole('button', { name: 'Move step 1 down' }).click();
      const sent = page.waitForRequest((r) => r.method() === 'PATCH');
      await page.getByRole('button', { name: 'Save changes' }).click();
      assert.deepEqual((await sent).postDataJSON(), {
        config: {
          instructions: [
            hover,
            { press: 'Tab' },
            { scroll: { direction: 'up', selector: null } },
            { evaluate: "document.getElementById('result').textContent = 'Set by evaluate'" },
            { infinite_scroll: { max_scrolls: 3, delay: 0 } },
          ],
        },
      });
      // This server does not take the kind: its 400 shows beside the form.
      assert.match(await text(page.getByTestId('form-error')), /hover/);
      await page.getByRole('link', { name: 'Cancel' }).click();
    } finally {
      await page.unroute(isList);
    }
  });

  test('signing out forgets the key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('pagegrab.apiKey')), null);
  });

  test('the dashboard made no request to any other host', async () => {
    const origin = new URL(service.baseUrl).origin;
    const foreign = requested.filter(
      (u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:'),
    );
    assert.deepEqual(foreign, []);
    assert.ok(requested.length > 10);
    // The key travels in the header only: never in a URL, where logs and history keep it.
    assert.deepEqual(keyless, []);
    assert.deepEqual(
      requested.filter((u) => /api_key=/i.test(u)),
      [],
    );
    // The browser enforces the same: the page and its assets carry a policy to their own
    // origin, and nothing the dashboard did was refused by it.
    for (const path of ['/', requested.find((u) => u.includes('/assets/')) ?? '/index.html']) {
      const policy = (await fetch(new URL(path, service.baseUrl))).headers.get(
        'content-security-policy',
      );
      assert.match(policy ?? '', /default-src 'self'/, path);
      assert.match(policy ?? '', /frame-ancestors 'none'/, path);
    }
    assert.deepEqual(refused, []);
  });
});
