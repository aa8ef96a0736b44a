import { Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import type { Instruction, InstructionKind } from '../types.js';
import { invalidValue } from './invalid.js';

/** Contract 2.5: a longer script is almost certainly a mistake or an abuse. */
export const MAX_INSTRUCTIONS = 50;
/**
 * Upper bound of a pause: the largest `timeout`. A longer pause could never finish inside
 * the budget, and timers above 2^31-1 ms silently fire at once in Node.
 */
const MAX_PAUSE_MS = 120_000;
const KINDS: readonly InstructionKind[] = ['wait', 'fill', 'click', 'delay'];
const ONE_OF = `exactly one of ${KINDS.join(', ')}`;

/** The instruction object of the description, for the OpenAPI document. */
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
  if (list.length > MAX_INSTRUCTIONS) {
    throw invalidValue(
      'instructions',
      `at most ${MAX_INSTRUCTIONS} steps are allowed, got ${list.length}`,
    );
  }
  return list.map((step, index) => {
    const parsed = parseStep(step);
    if (typeof parsed === 'string') throw appError('INVALID_INSTRUCTION', index, parsed);
    return parsed;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPause(value: unknown, min: number): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= min && value <= MAX_PAUSE_MS
  );
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
    case 'click':
      return typeof arg === 'string' && arg !== ''
        ? { click: arg }
        : 'click must be a non-empty string';
    case 'delay':
      return isPause(arg, 1) ? { delay: arg } : `delay must be a number from 1 to ${MAX_PAUSE_MS}`;
    case 'fill':
      return parseFill(arg);
    default:
      return `${kind} is not supported yet`;
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
