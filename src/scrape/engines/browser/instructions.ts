/**
 * Runs the caller's steps in order within the budget (contract 2.13). A step that cannot
 * succeed fails promptly with INSTRUCTION_FAILED (422) naming its index: a missing click,
 * fill or scroll target is reported at once instead of waiting out the budget; only `wait`
 * and `evaluate` may use the rest of it. Screenshot, snapshot and evaluate steps hand back
 * what they produced, in step order.
 */
import type { Page } from 'playwright-core';
import { appError, isAppError } from '../../../errors.js';
import type { ActionResults, Instruction, InstructionKind } from '../../types.js';
import { firstLine, isClosedError } from './browser-errors.js';
import { type Budget, sleep } from './budget.js';
import { evaluateScript } from './evaluate-script.js';
import { type CaptureSettings, capture } from './screenshots.js';
import { infiniteScroll, scrollStep } from './scroll-steps.js';

/**
 * Kept back from the budget for the steps after a `wait` and the output, so that a
 * selector that never appears is answered with 422 rather than 504.
 */
const RESERVE_MS = 300;

export interface InstructionSettings extends CaptureSettings {
  actionTimeoutMs: number;
}

const KINDS: readonly InstructionKind[] = [
  'wait',
  'fill',
  'click',
  'delay',
  'press',
  'scroll',
  'evaluate',
  'infinite_scroll',
  'click_all',
  'write',
  'screenshot',
  'snapshot',
];

export function kindOf(step: Instruction): InstructionKind {
  const kind = KINDS.find((k) => k in step);
  if (kind === undefined) throw new Error(`not an instruction: ${JSON.stringify(step)}`);
  return kind;
}

export function emptyActionResults(): ActionResults {
  return { screenshots: [], snapshots: [], javascriptReturns: [] };
}

export async function runInstructions(
  page: Page,
  steps: readonly Instruction[],
  budget: Budget,
  settings: InstructionSettings,
  signal?: AbortSignal,
): Promise<ActionResults> {
  const results = emptyActionResults();
  for (const [index, step] of steps.entries()) {
    budget.check();
    const kind = kindOf(step);
    try {
      await budget.race(runStep(page, step, budget, settings, results, signal));
    } catch (error) {
      if (isAppError(error) || isClosedError(error)) throw error;
      throw appError('INSTRUCTION_FAILED', index, kind, reasonOf(error, step));
    }
  }
  return results;
}

async function runStep(
  page: Page,
  step: Instruction,
  budget: Budget,
  settings: InstructionSettings,
  results: ActionResults,
  signal?: AbortSignal,
): Promise<void> {
  const actionTimeout = () =>
    Math.max(1, Math.min(settings.actionTimeoutMs, budget.remaining() - RESERVE_MS));
  // Our own timer too, not only Playwright's: on a loaded machine Playwright's timeout
  // reaches us after the budget's timer, and a selector that never appeared became a 504.
  // A timer of this event loop that is due first also fires first, however late both are.
  const untilReserve = (what: string) => {
    const ms = Math.max(1, budget.remaining() - RESERVE_MS);
    return { ms, onCap: () => Object.assign(new Error(what), { name: 'TimeoutError' }) };
  };
  if ('wait' in step) {
    const cap = untilReserve(`${step.wait} did not appear`);
    const visible = page.locator(step.wait).first().waitFor({ state: 'visible', timeout: cap.ms });
    await budget.race(visible, cap);
  } else if ('click' in step) {
    const target = await present(page, step.click);
    await target.click({ timeout: actionTimeout() });
  } else if ('click_all' in step) {
    const targets = await page.locator(step.click_all).elementHandles();
    if (targets.length === 0) throw new Error(`no element matches ${step.click_all}`);
    try {
      for (const target of targets) {
        // An earlier click may have removed this one (or left the page): it is skipped.
        if (!(await target.evaluate((element) => element.isConnected).catch(() => false))) continue;
        await target.click({ timeout: actionTimeout() });
      }
    } finally {
      await Promise.all(targets.map((t) => t.dispose().catch(() => {})));
    }
  } else if ('fill' in step) {
    const { selector, text, delay } = step.fill;
    const target = await present(page, selector);
    await target.fill('', { timeout: actionTimeout() });
    if (delay > 0) {
      if (delay * text.length > budget.remaining()) throw budget.timedOut();
      await target.pressSequentially(text, { delay, timeout: budget.remaining() });
    } else {
      await target.fill(text, { timeout: actionTimeout() });
    }
  } else if ('write' in step) {
    await page.keyboard.type(step.write);
  } else if ('press' in step) {
    await page.keyboard.press(step.press);
  } else if ('delay' in step) {
    // A pause that cannot end inside the budget would only burn the rest of it.
    if (step.delay >= budget.remaining()) throw budget.timedOut();
    await sleep(step.delay, signal);
  } else if ('scroll' in step) {
    await scrollStep(page, step.scroll.direction, step.scroll.selector);
  } else if ('infinite_scroll' in step) {
    const { max_scrolls, delay } = step.infinite_scroll;
    await infiniteScroll(page, max_scrolls, delay, budget, signal);
  } else if ('evaluate' in step) {
    const cap = untilReserve('the script did not finish in time');
    results.javascriptReturns.push(await budget.race(evaluateScript(page, step.evaluate), cap));
  } else if ('screenshot' in step) {
    results.screenshots.push(await capture(page, step.screenshot, budget, settings));
  } else {
    const html = await page.content();
    results.snapshots.push({ url: page.url(), html });
  }
}

/** The first element matching `selector`, failing at once when there is none. */
async function present(page: Page, selector: string) {
  const locator = page.locator(selector).first();
  if ((await locator.count()) === 0) throw new Error(`no element matches ${selector}`);
  return locator;
}

function reasonOf(error: unknown, step: Instruction): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    if ('wait' in step) return `${step.wait} did not appear`;
    if ('evaluate' in step) return 'the script did not finish in time';
    const selector = selectorOf(step);
    if (selector !== null) return `${selector} did not become actionable`;
  }
  return firstLine(message);
}

function selectorOf(step: Instruction): string | null {
  if ('click' in step) return step.click;
  if ('click_all' in step) return step.click_all;
  if ('fill' in step) return step.fill.selector;
  if ('scroll' in step) return step.scroll.selector;
  return null;
}
