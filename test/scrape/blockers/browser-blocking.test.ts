import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { DEFAULTS } from '../../../src/config.js';
import {
  collectDomTokensInPage,
  cosmeticCss,
  type FilterEngines,
  loadFilterEngines,
  matchesNetworkBlock,
} from '../../../src/scrape/blockers/filter-engines.js';
import { CHROMIUM_ARGS } from '../../../src/scrape/engines/browser/chromium-process.js';
import type { BlockSelection } from '../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { builtFilterDir } from './built-filters.js';

const FIXTURE = readFileSync(
  new URL('../../helpers/fixtures/blocked-page.html', import.meta.url),
  'utf8',
);

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

describe('in-browser blocking with the filter engines (real Chromium)', () => {
  let site: FixtureSite;
  let base: string;
  let browser: Browser;
  let engines: FilterEngines;

  before(async () => {
    engines = await loadFilterEngines(builtFilterDir());
    site = await startFixtureSite();
    site.html('/article', FIXTURE);
    // The page's first-party resources: present, and empty.
    for (const path of ['/static/app.js', '/static/site.css', '/images/photo.jpg'])
      site.route(path, (_req, res) => res.end(''));
    base = site.origin;
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  async function load(which: BlockSelection) {
    const context = await browser.newContext();
    const blocked: string[] = [];
    const page = await context.newPage();
    const pageUrl = `${base}/article`;
    await context.route('**/*', (route) => {
      const request = route.request();
      const url = request.url();
      const isTop = request.isNavigationRequest() && request.frame() === page.mainFrame();
      if (
        !isTop &&
        matchesNetworkBlock(
          engines,
          { url, type: request.resourceType(), sourceUrl: pageUrl },
          which,
        )
      ) {
        blocked.push(url);
        return route.abort('blockedbyclient');
      }
      // Tests never leave the machine: whatever the blockers let through off-loopback is aborted.
      return isLoopback(url) ? route.continue() : route.abort('blockedbyclient');
    });
    await page.goto(pageUrl, { waitUntil: 'load' });
    const tokens = await page.evaluate(collectDomTokensInPage);
    const css = cosmeticCss(engines, pageUrl, which, tokens);
    if (css) await page.addStyleTag({ content: css });
    const display = (selector: string) =>
      page.$eval(selector, (el) => getComputedStyle(el).display).catch(() => 'absent');
    return { context, page, blocked, display };
  }

  it('blocks ad and chat requests and hides ads, cookie banner and chat containers', async () => {
    const { context, blocked, display } = await load({
      ads: true,
      cookieBanners: true,
      chatWidgets: true,
    });
    try {
      assert.ok(
        blocked.some((u) => u.startsWith('https://securepubads.g.doubleclick.net/tag/js/gpt.js')),
        blocked.join('\n'),
      );
      assert.ok(
        blocked.some((u) => u.startsWith('https://widget.intercom.io/')),
        blocked.join('\n'),
      );
      assert.equal(await display('.banner-ad'), 'none');
      assert.equal(await display('#onetrust-consent-sdk'), 'none');
      assert.equal(await display('#intercom-container'), 'none');
      assert.equal(await display('#keep-me'), 'block');
    } finally {
      await context.close();
    }
  });

  it('blocks and hides nothing when nothing is selected', async () => {
    const none = { ads: false, cookieBanners: false, chatWidgets: false };
    const { context, blocked, display } = await load(none);
    try {
      assert.deepEqual(blocked, []);
      assert.equal(await display('.banner-ad'), 'block');
      assert.equal(await display('#onetrust-consent-sdk'), 'block');
    } finally {
      await context.close();
    }
  });
});
