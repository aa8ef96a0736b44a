import { Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import type { Instruction, InstructionKind } from '../types.js';
import { selectorProblem } from './instruction-selectors.js';
import { invalidValue } from './invalid.js';
import { assertJsonDepth } from './json-depth.js';

/** Contract 2.5: a longer script is almost certainly a mistake or an abuse. */
export const MAX_INSTRUCTIONS = 50;
/**
 * Upper bound of a pause: the largest `timeout`. A longer pause could never finish inside
 * the budget, and timers above 2^31-1 ms silently fire at once in Node.
 */
const MAX_PAUSE_MS = 120_000;
/** `infinite_scroll`: scrolls at most (default 10) and the pause after each (default 500 ms). */
const SCROLLS = { min: 1, max: 100, default: 10 } as const;
const SCROLL_DELAY_MS = { min: 0, max: 10_000, default: 500 } as const;
/**
 * The kinds the native API takes. The Firecrawl door's own kinds (click_all, write,
 * screenshot, snapshot) are refused here as unknown keys: they exist only there.
 */
const KINDS: readonly InstructionKind[] = [
  'wait',
  'fill',
  'click',
  'delay',
  'press',
  'scroll',
  'evaluate',
  'infinite_scroll',
];
const ONE_OF = `exactly one of ${KINDS.join(', ')}`;

const direction = Type.Union([Type.Literal('down'), Type.Literal('up')]);

/**
 * The instruction object of the description, for the OpenAPI document. It also holds the
 * normalised forms a workflow config stores (`scroll` as an object, `selector: null`).
 */
export const instructionSchema = Type.Union(
  [
    Type.Object({ wait: Type.String({ description: 'Selector to wait for' }) }, strict()),
    Type.Object(
      {
        fill: Type.Object(
          {
            selector: Type.String({ minLength: 1 }),
            text: Type.String({ minLength: 1 }),
            delay: Type.Optional(
              Type.Number({ minimum: 0, maximum: MAX_PAUSE_MS, default: 0, description: 'ms' }),
            ),
          },
          strict(),
        ),
      },
      strict(),
    ),
    Type.Object(
      { click: Type.String({ minLength: 1, description: 'Selector to click' }) },
      strict(),
    ),
    Type.Object(
      { delay: Type.Number({ minimum: 1, maximum: MAX_PAUSE_MS, description: 'ms' }) },
      strict(),
    ),
    Type.Object(
      {
        press: Type.String({
          minLength: 1,
          description: 'Key to press in the focused element, e.g. Enter, Tab, ArrowDown, Control+A',
        }),
      },
      strict(),
    ),
    Type.Object(
      {
        scroll: Type.Union(
          [
            direction,
            Type.Object(
              {
                direction,
                selector: Type.Optional(
                  Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
                    description: 'Element to scroll instead of the window',
                  }),
                ),
              },
              strict(),
            ),
          ],
          { description: 'Scroll the window (or the element) by one visible height' },
        ),
      },
      strict(),
    ),
    Type.Object(
      {
        evaluate: Type.String({
          minLength: 1,
          description:
            'JavaScript run in the page: an expression or a function body (await allowed); its value is not returned',
        }),
      },
      strict(),
    ),
    Type.Object(
      {
        infinite_scroll: Type.Union(
          [
            Type.Literal(true),
            Type.Object(
              {
                max_scrolls: Type.Optional(
                  Type.Integer({
                    minimum: SCROLLS.min,
                    maximum: SCROLLS.max,
                    default: SCROLLS.default,
                  }),
                ),
                delay: Type.Optional(
                  Type.Number({
                    minimum: SCROLL_DELAY_MS.min,
                    maximum: SCROLL_DELAY_MS.max,
                    default: SCROLL_DELAY_MS.default,
                    description: 'ms to wait after each scroll',
                  }),
                ),
              },
              strict(),
            ),
          ],
          {
            description:
              'Scroll to the bottom until the page stops growing or max_scrolls is reached; true: the defaults',
          },
        ),
      },
      strict(),
    ),
  ],
  { description: 'One browser automation step; steps run in array order' },
);

function strict() {
  return { additionalProperties: false } as const;
}

/**
 * A JSON-encoded array (query) or an array (JSON layers); an empty string means no steps.
 * Errors name the step: `Invalid instruction at index <i>: <reason>`.
 */
export function parseInstructions(value: unknown): Instruction[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    try {
      list = JSON.parse(value);
    } catch {
      list = undefined;
    }
  }
  if (!Array.isArray(list)) {
    throw invalidValue('instructions', 'expected a JSON-encoded array of instruction objects');
  }
  assertJsonDepth(list);
  if (list.length > MAX_INSTRUCTIONS) {
    throw invalidValue(
      'instructions',
      `at most ${MAX_INSTRUCTIONS} steps are allowed, got ${list.length}`,
    );
  }
  return list.map((step, index) => {
    const parsed = parseStep(step);
    const problem = typeof parsed === 'string' ? parsed : selectorOfStepProblem(parsed);
    if (problem !== null) throw appError('INVALID_INSTRUCTION', index, problem);
    return parsed as Instruction;
  });
}

/**
 * A step's selector that no page could match is refused here, before a browser starts, in
 * the step's terms (`click selector "div[" is not valid CSS: …`) rather than Chromium's.
 * `wait: ""` stays as it always was (waits for nothing).
 */
function selectorOfStepProblem(step: Instruction): string | null {
  const [field, selector] =
    'wait' in step
      ? ['wait', step.wait === '' ? null : step.wait]
      : 'click' in step
        ? ['click', step.click]
        : 'fill' in step
          ? ['fill.selector', step.fill.selector]
          : 'scroll' in step
            ? ['scroll.selector', step.scroll.selector]
            : ['', null];
  if (selector === null) return null;
  const problem = selectorProblem(selector);
  return problem === null ? null : `${field} selector ${JSON.stringify(selector)}: ${problem}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPause(value: unknown, min: number, max = MAX_PAUSE_MS): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

function nonEmpty(arg: unknown): string | null {
  return typeof arg === 'string' && arg !== '' ? arg : null;
}

/** The step, or the reason it is invalid. */
function parseStep(step: unknown): Instruction | string {
  if (!isPlainObject(step)) return `expected an object with ${ONE_OF}`;
  const keys = Object.keys(step);
  const unknown = keys.find((key) => !(KINDS as readonly string[]).includes(key));
  if (unknown !== undefined) return `unknown key ${unknown}; expected ${ONE_OF}`;
  if (keys.length !== 1) {
    return keys.length === 0 ? `expected ${ONE_OF}` : `expected ${ONE_OF}, got ${keys.join(', ')}`;
  }
  const kind = keys[0] as InstructionKind;
  const arg = step[kind];
  switch (kind) {
    case 'wait':
      return typeof arg === 'string' ? { wait: arg } : 'wait must be a string';
    case 'click': {
      const click = nonEmpty(arg);
      return click !== null ? { click } : 'click must be a non-empty string';
    }
    case 'delay':
      return isPause(arg, 1) ? { delay: arg } : `delay must be a number from 1 to ${MAX_PAUSE_MS}`;
    case 'fill':
      return parseFill(arg);
    case 'press': {
      const press = nonEmpty(arg);
      return press !== null ? { press } : 'press must be a non-empty key name, e.g. Enter';
    }
    case 'scroll':
      return parseScroll(arg);
    case 'evaluate': {
      const evaluate = nonEmpty(arg);
      return evaluate !== null ? { evaluate } : 'evaluate must be a non-empty string of JavaScript';
    }
    case 'infinite_scroll':
      return parseInfiniteScroll(arg);
    default:
      return `unknown key ${kind}; expected ${ONE_OF}`;
  }
}

function parseFill(arg: unknown): Instruction | string {
  if (!isPlainObject(arg)) return 'fill must be an object with selector and text';
  const extra = Object.keys(arg).find((key) => !['selector', 'text', 'delay'].includes(key));
  if (extra !== undefined) return `unknown key fill.${extra}; expected selector, text, delay`;
  for (const field of ['selector', 'text'] as const) {
    const v = arg[field];
    if (v === undefined || v === null) return `fill.${field} is required`;
    if (typeof v !== 'string' || v === '') return `fill.${field} must be a non-empty string`;
  }
  const delay = arg.delay ?? 0;
  if (!isPause(delay, 0)) return `fill.delay must be a number from 0 to ${MAX_PAUSE_MS}`;
  return { fill: { selector: arg.selector as string, text: arg.text as string, delay } };
}

function isDirection(value: unknown): value is 'down' | 'up' {
  return value === 'down' || value === 'up';
}

function parseScroll(arg: unknown): Instruction | string {
  if (isDirection(arg)) return { scroll: { direction: arg, selector: null } };
  if (!isPlainObject(arg)) return 'scroll must be "down", "up" or an object with direction';
  const extra = Object.keys(arg).find((key) => !['direction', 'selector'].includes(key));
  if (extra !== undefined) return `unknown key scroll.${extra}; expected direction, selector`;
  if (arg.direction === undefined || arg.direction === null) return 'scroll.direction is required';
  if (!isDirection(arg.direction)) return 'scroll.direction must be "down" or "up"';
  const selector = arg.selector ?? null;
  if (selector !== null && (typeof selector !== 'string' || selector === '')) {
    return 'scroll.selector must be a non-empty string';
  }
  return { scroll: { direction: arg.direction, selector } };
}

function parseInfiniteScroll(arg: unknown): Instruction | string {
  const defaults = { max_scrolls: SCROLLS.default, delay: SCROLL_DELAY_MS.default };
  if (arg === true) return { infinite_scroll: defaults };
  if (!isPlainObject(arg)) {
    return 'infinite_scroll must be true or an object with max_scrolls, delay';
  }
  const extra = Object.keys(arg).find((key) => !['max_scrolls', 'delay'].includes(key));
  if (extra !== undefined) {
    return `unknown key infinite_scroll.${extra}; expected max_scrolls, delay`;
  }
  const maxScrolls = arg.max_scrolls ?? defaults.max_scrolls;
  if (!Number.isInteger(maxScrolls) || !isPause(maxScrolls, SCROLLS.min, SCROLLS.max)) {
    return `infinite_scroll.max_scrolls must be an integer from ${SCROLLS.min} to ${SCROLLS.max}`;
  }
  const delay = arg.delay ?? defaults.delay;
  if (!isPause(delay, SCROLL_DELAY_MS.min, SCROLL_DELAY_MS.max)) {
    return `infinite_scroll.delay must be a number from ${SCROLL_DELAY_MS.min} to ${SCROLL_DELAY_MS.max}`;
  }
  return { infinite_scroll: { max_scrolls: maxScrolls, delay } };
}
