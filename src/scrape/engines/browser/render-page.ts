/**
 * One render on a warm page: viewport, navigation until `load`, instructions, blockers'
 * cosmetic CSS, then the output (contract 2.13, 2.14). Status and final URL come from the
 * last main-frame document response, so a click that navigates reports the new page.
 */
import type { Page, Response } from 'playwright-core';
import { appError } from '../../../errors.js';
import type { BlockSelection, PageSnapshot, ScrapeRun } from '../../types.js';
import { anyBlocker, type ConsentHandle } from './blockers-hook.js';
import { netErrorCode } from './browser-errors.js';
import type { Budget } from './budget.js';
import { explainNavigationFailure } from './context-network.js';
import { runInstructions } from './instructions.js';
import type { ResolvedBrowserOptions } from './options.js';
import type { WarmPage } from './warm-page.js';

/** Longest wait for the consent rejector after the instructions. */
const CONSENT_SETTLE_MS = 3_000;
/** Budget kept for taking the output after the consent wait. */
const OUTPUT_RESERVE_MS = 1_000;

const NO_BLOCKS: BlockSelection = { ads: false, cookieBanners: false, chatWidgets: false };

export function blockerSelection(plan: Pick<ScrapeRun, 'block'>): BlockSelection {
  return plan.block ?? NO_BLOCKS;
}

export async function renderOnPage(
  warm: WarmPage,
  plan: ScrapeRun,
  budget: Budget,
  options: ResolvedBrowserOptions,
): Promise<PageSnapshot> {
  const { page } = warm;
  const { windowWidth, windowHeight, instructions } = plan.options;
  const which = blockerSelection(plan);
  const blockers = anyBlocker(which) ? options.blockers : undefined;
  await budget.race(page.setViewportSize({ width: windowWidth, height: windowHeight }));

  let consent: ConsentHandle | undefined;
  if (blockers && which.cookieBanners) {
    warm.tainted = true; // init scripts cannot be removed from a page
    consent = await budget.race(blockers.installConsentRejector(page));
  }

  let last: Response | null = null;
  const onResponse = (response: Response) => {
    const request = response.request();
    const redirect = response.status() >= 300 && response.status() < 400;
    if (!redirect && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      last = response;
    }
  };
  page.on('response', onResponse);
  try {
    const first = await navigate(warm, plan, budget);
    last ??= first;
    await runInstructions(page, instructions, budget, options, plan.signal);
    if (blockers) {
      // Give the rejector a bounded moment to click "reject" before the output is taken.
      const settle = Math.min(CONSENT_SETTLE_MS, budget.remaining() - OUTPUT_RESERVE_MS);
      if (consent && settle > 0) await budget.race(consent.settled(settle)).catch(() => {});
      const collect = blockers.collectDomTokensInPage;
      const dom = collect ? await budget.race(page.evaluate(collect)) : undefined;
      const css = blockers.cosmeticCss(page.url(), which, dom);
      // A screenshot hides what the rules match; HTML and Markdown leave it out entirely, so
      // neither the blocked elements nor the rules' stylesheet reach the caller.
      if (css && plan.output === 'screenshot')
        await budget.race(page.addStyleTag({ content: css }));
      else if (css) await budget.race(page.evaluate(removeMatchedElements, css));
    }
    const html = await budget.race(page.content());
    const screenshot =
      plan.output === 'screenshot' ? await takeScreenshot(page, plan, budget, options) : undefined;
    const final: Response = last ?? first;
    return { finalUrl: page.url() || final.url(), status: final.status(), html, screenshot };
  } finally {
    page.off('response', onResponse);
  }
}

async function navigate(warm: WarmPage, plan: ScrapeRun, budget: Budget): Promise<Response> {
  let response: Response | null;
  try {
    response = await budget.race(
      warm.page.goto(plan.options.url, { waitUntil: 'load', timeout: budget.remaining() }),
    );
  } catch (error) {
    const refused = warm.policy?.refusedMain;
    if (refused) {
      throw refused.reason === 'unresolved'
        ? appError('FETCH_FAILED', `could not resolve ${refused.host}`)
        : appError('URL_NOT_ALLOWED', refused.host);
    }
    // The guard proxy refused or saw fail what the route let through (a rebound name, a
    // dead upstream): Chromium only reports a failed tunnel or an empty response.
    if (netErrorCode(error) !== null && warm.policy) {
      const explained = explainNavigationFailure(warm.network.events, warm.policy.mainHosts);
      if (explained) throw explained;
    }
    if (error instanceof Error && error.name === 'TimeoutError') throw budget.timedOut();
    if (warm.failure !== null) throw appError('BROWSER_FAILED', warm.failure);
    throw error; // net::ERR_* and proxy failures are classified by the engine
  }
  if (response === null) throw appError('FETCH_FAILED', 'the page did not load a document');
  return response;
}

async function takeScreenshot(
  page: Page,
  plan: ScrapeRun,
  budget: Budget,
  options: ResolvedBrowserOptions,
): Promise<Buffer> {
  const timeout = budget.remaining();
  if (!plan.options.screenshotFullPage) {
    return budget.race(page.screenshot({ type: 'png', timeout }));
  }
  const height = await budget.race(
    page.evaluate(() =>
      Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    ),
  );
  if (height <= options.maxFullPageHeight) {
    return budget.race(page.screenshot({ type: 'png', fullPage: true, timeout }));
  }
  // Taller pages are cut: Chromium cannot paint a surface beyond ~16k pixels reliably.
  const clip = { x: 0, y: 0, width: plan.options.windowWidth, height: options.maxFullPageHeight };
  return budget.race(page.screenshot({ type: 'png', fullPage: true, clip, timeout }));
}

/** Runs in the page: removes every element a hiding rule of `css` matches. */
function removeMatchedElements(css: string): void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  for (const rule of Array.from(style.sheet?.cssRules ?? [])) {
    if (!(rule instanceof CSSStyleRule)) continue;
    try {
      for (const element of document.querySelectorAll(rule.selectorText)) element.remove();
    } catch {
      // A selector this Chromium does not support matches nothing.
    }
  }
  style.remove();
}
