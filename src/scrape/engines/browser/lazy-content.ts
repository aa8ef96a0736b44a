/**
 * Drawing lazily loaded content before a full-page screenshot. Chromium paints the whole
 * page without scrolling it, so content that loads when it comes into view
 * (IntersectionObserver, `loading=lazy`) never loads: tried as a new user would, a
 * full-page screenshot showed 8 of 11 lazily loaded sections (issue 13). So the page is
 * first scrolled down one window height at a time, the requests that started are given a
 * moment to finish, and the page goes back to the top.
 *
 * Every part is bounded: the scroll stops at the screenshot's height limit, after
 * MAX_STEPS steps or SCROLL_PASS_MS, and the whole pass gives up (keeping what it drew) at
 * LAZY_PASS_MS or when the budget has only OUTPUT_RESERVE_MS left.
 */
import type { Page, Request } from 'playwright-core';
import type { Budget } from './budget.js';

/** Steps of one window height at most. */
const MAX_STEPS = 30;
/** Pause per step: an IntersectionObserver callback runs on the next frame, its fetch starts then. */
const STEP_PAUSE_MS = 80;
/** The scroll itself. */
const SCROLL_PASS_MS = 3_000;
/** Requests started by the scroll must be done this long (their handlers then ran). */
const QUIET_MS = 200;
/** The whole pass: scroll, quiet network, back to the top. */
const LAZY_PASS_MS = 5_000;
/** Left to the screenshot and the output. */
const OUTPUT_RESERVE_MS = 1_500;

/** Scrolls through the page (down to `maxHeight` CSS pixels) so lazy content loads. */
export async function drawLazyContent(page: Page, budget: Budget, maxHeight: number) {
  const ms = Math.min(LAZY_PASS_MS, budget.remaining() - OUTPUT_RESERVE_MS);
  if (ms <= 0) return;
  const stopAt = Date.now() + ms;
  const requests = trackRequests(page);
  try {
    const pass = { maxHeight, maxSteps: MAX_STEPS, pauseMs: STEP_PAUSE_MS, passMs: SCROLL_PASS_MS };
    await budget.race(page.evaluate(scrollThrough, pass), lazyCap(ms));
    await requests.quiet(QUIET_MS, stopAt);
  } catch (error) {
    // A page that breaks its own scrolling still gets its screenshot; the budget's end does not.
    if (budget.remaining() <= 0) throw error;
  } finally {
    requests.stop();
  }
  const left = Math.max(1, Math.min(1_000, budget.remaining() - OUTPUT_RESERVE_MS));
  await budget.race(page.evaluate(backToTop), lazyCap(left)).catch(() => {});
}

function lazyCap(ms: number) {
  return { ms, onCap: () => new Error('the lazy-content pass took too long') };
}

/** Runs in the page: one window height per step, a frame and a pause after each. */
async function scrollThrough(pass: {
  maxHeight: number;
  maxSteps: number;
  pauseMs: number;
  passMs: number;
}): Promise<void> {
  // No local functions here: a transpiler keeping names (tsx) would wrap them in a helper
  // the page does not have. rAF does not run in a hidden page, hence the timeouts.
  const root = document.scrollingElement ?? document.documentElement;
  const started = performance.now();
  for (let step = 0; step < pass.maxSteps; step += 1) {
    const bottom = Math.min(root.scrollHeight, pass.maxHeight);
    if (window.scrollY + window.innerHeight >= bottom) break;
    if (performance.now() - started > pass.passMs) break;
    window.scrollTo(0, window.scrollY + window.innerHeight);
    await new Promise<void>((resolve) => {
      requestAnimationFrame(() => resolve());
      setTimeout(resolve, 100);
    });
    await new Promise<void>((resolve) => setTimeout(resolve, pass.pauseMs));
  }
}

/** Runs in the page. */
async function backToTop(): Promise<void> {
  window.scrollTo(0, 0);
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => resolve());
    setTimeout(resolve, 100);
  });
}

/**
 * Counts the page's requests in flight. Streams that never end (event sources, web
 * sockets) are left out: they would hold the pass until its cap on every such page.
 */
function trackRequests(page: Page) {
  const open = new Set<Request>();
  let lastChange = Date.now();
  const onStart = (request: Request) => {
    if (['eventsource', 'websocket'].includes(request.resourceType())) return;
    open.add(request);
    lastChange = Date.now();
  };
  const onEnd = (request: Request) => {
    if (open.delete(request)) lastChange = Date.now();
  };
  page.on('request', onStart);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);
  return {
    /** Resolves once nothing was in flight for `quietMs`, or at `stopAt` (epoch ms). */
    async quiet(quietMs: number, stopAt: number): Promise<void> {
      for (;;) {
        const now = Date.now();
        if (now >= stopAt) return;
        const idleFor = now - lastChange;
        if (open.size === 0 && idleFor >= quietMs) return;
        const wait = open.size === 0 ? quietMs - idleFor : 50;
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, stopAt - now)));
      }
    },
    stop(): void {
      page.off('request', onStart);
      page.off('requestfinished', onEnd);
      page.off('requestfailed', onEnd);
    },
  };
}
