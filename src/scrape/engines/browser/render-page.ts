/**
 * One render on a warm page: window, the caller's headers and languages, navigation until
 * `wait_until`, the `waitForMs` pause, instructions, blockers' cosmetic CSS, then the
 * output (contract 2.13, 2.14). Status and final URL come from the last main-frame
 * document response, so a click that navigates reports the new page.
 *
 * `actions` (what screenshot, snapshot and evaluate steps produced) is in the snapshot when
 * a step produced something, and always for a `document` output (then possibly empty), so
 * that the document's producer never has to tell "no steps" from "nothing returned".
 */
import type { Response } from 'playwright-core';
import { appError } from '../../../errors.js';
import type { BlockSelection, PageSnapshot, ScrapeRun, ScreenshotRequest } from '../../types.js';
import { bodyTooLarge } from '../fetch/read-body.js';
import { anyBlocker, type ConsentHandle } from './blockers-hook.js';
import { isClosedError, netErrorCode } from './browser-errors.js';
import { type Budget, sleep } from './budget.js';
import { explainNavigationFailure } from './context-network.js';
import { type InstructionSettings, runInstructions } from './instructions.js';
import type { ResolvedBrowserOptions } from './options.js';
import { applyPageBlockers, beginConsentRejection } from './page-blockers.js';
import { isWebUrl, leftTheWeb, watchMainFrameFailures } from './page-moves.js';
import { scaleOf, windowOf } from './page-profile.js';
import { settle } from './page-settle.js';
import { requestIdentityOf } from './request-identity.js';
import { capture } from './screenshots.js';
import type { WarmPage } from './warm-page.js';

/** Longest wait for the consent rejector after the instructions. */
const CONSENT_SETTLE_MS = 3_000;
/** Budget kept for taking the output after the consent wait. */
const OUTPUT_RESERVE_MS = 1_000;
/**
 * `networkidle` is the load event, then up to this long for 500 ms without requests: a
 * page that polls or streams never gets there, and is better taken as it is than a 504.
 */
const NETWORK_IDLE_MAX_MS = 10_000;

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
  const settings: InstructionSettings = {
    actionTimeoutMs: options.actionTimeoutMs,
    window: windowOf(plan.options),
    scale: scaleOf(plan.options),
    maxFullPageHeight: options.maxFullPageHeight,
  };
  const which = blockerSelection(plan);
  const blockers = anyBlocker(which) ? options.blockers : undefined;
  await budget.race(warm.resume());
  // Setting the same size again still costs Chromium a resize: only a change is sent.
  const size = page.viewportSize();
  if (size?.width !== settings.window.width || size?.height !== settings.window.height)
    await budget.race(page.setViewportSize(settings.window));
  await budget.race(warm.applyIdentity(requestIdentityOf(plan.options)));

  let consent: ConsentHandle | undefined;
  if (blockers && which.cookieBanners)
    consent = await beginConsentRejection(warm, blockers, budget);

  let last: Response | null = null;
  const onResponse = (response: Response) => {
    const request = response.request();
    const redirect = response.status() >= 300 && response.status() < 400;
    if (!redirect && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      last = response;
    }
  };
  page.on('response', onResponse);
  const moves = watchMainFrameFailures(page);
  // From before the navigation: a request the page sends while it loads is work as well.
  const requests = plan.options.waitUntil === 'settled' ? warm.watchRequests() : null;
  try {
    const first = await navigate(warm, plan, budget);
    if (requests) {
      const limits = { maxMs: options.settleMaxMs, reserveMs: OUTPUT_RESERVE_MS };
      await settle(warm, requests, budget, limits);
    }
    last ??= first;
    await pauseAfterLoad(plan, budget);
    const actions = await runInstructions(
      page,
      plan.options.instructions,
      budget,
      settings,
      plan.signal,
    );
    if (blockers) {
      // A bounded moment for the rejector to click "reject" before the output is taken.
      const ms = Math.min(CONSENT_SETTLE_MS, budget.remaining() - OUTPUT_RESERVE_MS);
      await applyPageBlockers(warm, plan.output, which, blockers, { handle: consent, ms }, budget);
    }
    // The screenshot first: a full page scrolls through lazy content, which the HTML then holds.
    const request = screenshotRequestOf(plan);
    const screenshot = request ? await capture(page, request, budget, settings) : undefined;
    const html = await budget.race(warm.html(options.maxBodyBytes));
    if (html === null) throw bodyTooLarge(options.maxBodyBytes);
    const final: Response = last ?? first;
    const finalUrl = page.url() || final.url();
    if (!isWebUrl(finalUrl)) throw leftTheWeb(finalUrl, warm, moves.last());
    const snapshot: PageSnapshot = {
      finalUrl,
      status: final.status(),
      html,
      screenshot,
      contentType: final.headers()['content-type'] ?? null,
    };
    const retryAfter = final.headers()['retry-after'];
    if (retryAfter) snapshot.retryAfter = retryAfter;
    const produced =
      actions.screenshots.length + actions.snapshots.length + actions.javascriptReturns.length;
    if (produced > 0 || plan.output === 'document') snapshot.actions = actions;
    return snapshot;
  } finally {
    page.off('response', onResponse);
    moves.stop();
    requests?.stop();
  }
}

async function navigate(warm: WarmPage, plan: ScrapeRun, budget: Budget): Promise<Response> {
  const waitUntil = plan.options.waitUntil === 'domcontentloaded' ? 'domcontentloaded' : 'load';
  let response: Response | null;
  try {
    response = await budget.race(
      warm.page.goto(plan.options.url, { waitUntil, timeout: budget.remaining() }),
    );
  } catch (error) {
    const notFollowed = warm.policy?.refusedRedirect;
    if (notFollowed) throw appError('FETCH_FAILED', `redirect to ${notFollowed} not followed`);
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
  if (plan.options.waitUntil === 'networkidle') await networkIdle(warm, budget);
  return response;
}

async function networkIdle(warm: WarmPage, budget: Budget): Promise<void> {
  const ms = Math.min(NETWORK_IDLE_MAX_MS, budget.remaining() - OUTPUT_RESERVE_MS);
  if (ms <= 0) return;
  const idle = warm.page.waitForLoadState('networkidle', { timeout: ms });
  const cap = { ms, onCap: () => Object.assign(new Error('busy'), { name: 'TimeoutError' }) };
  await budget.race(idle, cap).catch((error: unknown) => {
    if (isClosedError(error) || budget.remaining() <= 0) throw error;
  });
}

/** The door's `waitFor`: a pause after the load, inside the budget like a `delay` step. */
async function pauseAfterLoad(plan: ScrapeRun, budget: Budget): Promise<void> {
  const ms = plan.options.waitForMs;
  if (ms <= 0) return;
  if (ms >= budget.remaining()) throw budget.timedOut();
  await budget.race(sleep(ms, plan.signal));
}

/** The screenshot the output needs, or null. */
function screenshotRequestOf(plan: ScrapeRun): ScreenshotRequest | null {
  if (plan.output === 'screenshot') {
    return { fullPage: plan.options.screenshotFullPage, quality: null, viewport: null };
  }
  if (plan.output === 'document') return plan.options.document?.screenshot ?? null;
  return null;
}
