/**
 * The `scroll` and `infinite_scroll` steps. A scroll moves the window (or the element the
 * selector names, when it has a scrollbar of its own) by one visible height. An infinite
 * scroll goes to the bottom, waits `delay` ms for the page to append, and goes again until
 * the page stops growing or `max_scrolls` is reached; it also stops, keeping what loaded,
 * when the next pause would leave less than OUTPUT_RESERVE_MS of the budget: the number
 * of scrolls is a ceiling, not something the caller asked to be answered with 504 for.
 */
import type { Page } from 'playwright-core';
import type { Budget } from './budget.js';
import { sleep } from './budget.js';

/** Left to the steps after an infinite scroll and to the output. */
const OUTPUT_RESERVE_MS = 1_000;

export async function scrollStep(
  page: Page,
  direction: 'up' | 'down',
  selector: string | null,
): Promise<void> {
  const sign = direction === 'down' ? 1 : -1;
  if (selector === null) {
    await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
    return;
  }
  const target = page.locator(selector).first();
  if ((await target.count()) === 0) throw new Error(`no element matches ${selector}`);
  await target.evaluate((element, s) => {
    const by = (element.clientHeight || window.innerHeight) * s;
    // An element without a scrollbar of its own: scroll the window past it instead.
    if (element.scrollHeight > element.clientHeight) element.scrollBy(0, by);
    else window.scrollBy(0, by);
  }, sign);
}

export async function infiniteScroll(
  page: Page,
  maxScrolls: number,
  delay: number,
  budget: Budget,
  signal?: AbortSignal,
): Promise<void> {
  let height = await page.evaluate(pageHeight);
  for (let scroll = 0; scroll < maxScrolls; scroll += 1) {
    if (delay + OUTPUT_RESERVE_MS >= budget.remaining()) return;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await sleep(delay, signal);
    const grown = await page.evaluate(pageHeight);
    if (grown <= height) return;
    height = grown;
  }
}

/** Runs in the page. */
function pageHeight(): number {
  return Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);
}
