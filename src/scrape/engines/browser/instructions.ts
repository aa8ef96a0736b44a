/**
 * Runs the caller's steps in order within the budget (contract 2.13). A step that cannot
 * succeed fails promptly with INSTRUCTION_FAILED (422): a missing click or fill target is
 * reported at once instead of waiting out the budget; only `wait` may use the rest of it.
 */
import type { Page } from 'playwright-core';
import { appError, isAppError } from '../../../errors.js';
import type { Instruction, InstructionKind } from '../../types.js';
import { firstLine, isClosedError } from './browser-errors.js';
import { type Budget, sleep } from './budget.js';

/**
 * Kept back from the budget for the steps after a `wait` and the output, so that a
 * selector that never appears is answered with 422 rather than 504.
 */
const RESERVE_MS = 300;

export interface InstructionSettings {
  actionTimeoutMs: number;
}

export function kindOf(step: Instruction): InstructionKind {
  if ('wait' in step) return 'wait';
  if ('fill' in step) return 'fill';
  if ('click' in step) return 'click';
  return 'delay';
}

export async function runInstructions(
  page: Page,
  steps: readonly Instruction[],
  budget: Budget,
  settings: InstructionSettings,
  signal?: AbortSignal,
): Promise<void> {
  for (const [index, step] of steps.entries()) {
    budget.check();
    const kind = kindOf(step);
    try {
      await budget.race(runStep(page, step, budget, settings, signal));
    } catch (error) {
      if (isAppError(error) || isClosedError(error)) throw error;
      throw appError('INSTRUCTION_FAILED', index, kind, reasonOf(error, step));
    }
  }
}

async function runStep(
  page: Page,
  step: Instruction,
  budget: Budget,
  settings: InstructionSettings,
  signal?: AbortSignal,
): Promise<void> {
  const actionTimeout = () =>
    Math.max(1, Math.min(settings.actionTimeoutMs, budget.remaining() - RESERVE_MS));
  if ('wait' in step) {
    const ms = Math.max(1, budget.remaining() - RESERVE_MS);
    // Our own timer too, not only Playwright's: on a loaded machine Playwright's timeout
    // reaches us after the budget's timer, and a selector that never appeared became a 504.
    // A timer of this event loop that is due first also fires first, however late both are.
    await budget.race(page.locator(step.wait).first().waitFor({ state: 'visible', timeout: ms }), {
      ms,
      onCap: () =>
        Object.assign(new Error(`${step.wait} did not appear`), { name: 'TimeoutError' }),
    });
    return;
  }
  if ('click' in step) {
    const target = await present(page, step.click);
    await target.click({ timeout: actionTimeout() });
    return;
  }
  if ('fill' in step) {
    const { selector, text, delay } = step.fill;
    const target = await present(page, selector);
    await target.fill('', { timeout: actionTimeout() });
    if (delay > 0) {
      if (delay * text.length > budget.remaining()) throw budget.timedOut();
      await target.pressSequentially(text, { delay, timeout: budget.remaining() });
    } else {
      await target.fill(text, { timeout: actionTimeout() });
    }
    return;
  }
  if ('delay' in step) {
    // A pause that cannot end inside the budget would only burn the rest of it.
    if (step.delay >= budget.remaining()) throw budget.timedOut();
    await sleep(step.delay, signal);
    return;
  }
  throw new Error(`${kindOf(step)} is not supported yet`);
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
    const selector = 'click' in step ? step.click : 'fill' in step ? step.fill.selector : '';
    return `${selector} did not become actionable`;
  }
  return firstLine(message);
}
