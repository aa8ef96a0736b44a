import { type Instruction, SCROLL_DIRECTIONS, type ScrollDirection } from '../api/types.js';
import { numberish, text } from './form-text.js';

/** The kinds the editor has inputs for, in the order it offers them. */
export const STEP_KINDS = [
  'wait',
  'fill',
  'click',
  'delay',
  'press',
  'scroll',
  'evaluate',
  'infinite_scroll',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * One instruction as the editor holds it: every input's text, whatever the step's kind, so
 * switching a step's kind keeps what was typed.
 */
export interface StepDraft {
  /** Stable identity for the list while steps are added, removed and reordered. */
  key: number;
  /**
   * `opaque`: a saved step the inputs cannot show exactly (say, a kind from a newer server).
   * It is shown as JSON and written back as saved, never dropped nor rewritten.
   */
  kind: StepKind | 'opaque';
  /** The element of wait, click and fill; the element scroll moves (empty: the window). */
  selector: string;
  /** The text fill types. */
  text: string;
  /**
   * Milliseconds as typed: the pause of a delay step, the typing delay of a fill step, the
   * pause after each scroll of infinite_scroll.
   */
  ms: string;
  /** The key press presses, e.g. Enter or Control+A. */
  keyName: string;
  direction: ScrollDirection;
  /** The JavaScript evaluate runs. */
  script: string;
  /** infinite_scroll's max_scrolls as typed. */
  scrolls: string;
  /** The step as saved, for an opaque step. */
  raw?: unknown;
}

let nextKey = 1;
/** A new step with the server's defaults filled in, so what is saved is what is shown. */
export function newStep(kind: StepKind): StepDraft {
  return {
    key: nextKey++,
    kind,
    selector: '',
    text: '',
    ms: kind === 'delay' ? '1000' : kind === 'infinite_scroll' ? '500' : '',
    keyName: '',
    direction: 'down',
    script: '',
    scrolls: kind === 'infinite_scroll' ? '10' : '',
  };
}

export function stepToInstruction(s: StepDraft): Instruction {
  switch (s.kind) {
    case 'wait':
      return { wait: s.selector };
    case 'click':
      return { click: s.selector };
    case 'delay':
      return { delay: numberish(s.ms) as number };
    case 'fill': {
      const delay = numberish(s.ms);
      const fill: { selector: string; text: string; delay?: number } = {
        selector: s.selector,
        text: s.text,
      };
      if (delay !== undefined) fill.delay = delay as number;
      return { fill };
    }
    case 'press':
      return { press: s.keyName };
    case 'scroll':
      // The object form with an explicit null: what the server stores for every scroll.
      return {
        scroll: { direction: s.direction, selector: s.selector.trim() === '' ? null : s.selector },
      };
    case 'evaluate':
      return { evaluate: s.script };
    case 'infinite_scroll': {
      const scrolls = numberish(s.scrolls);
      const delay = numberish(s.ms);
      const options: { max_scrolls?: number; delay?: number } = {};
      if (scrolls !== undefined) options.max_scrolls = scrolls as number;
      if (delay !== undefined) options.delay = delay as number;
      return { infinite_scroll: options };
    }
    case 'opaque':
      // Whatever it holds goes back as it came; the server is the judge of it.
      return s.raw as Instruction;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The inputs of a saved step of a known kind; null for anything else. */
function readStep(raw: unknown): StepDraft | null {
  if (!isObject(raw)) return null;
  const keys = Object.keys(raw);
  const kind = keys[0];
  if (keys.length !== 1 || !(STEP_KINDS as readonly string[]).includes(kind ?? '')) return null;
  const arg = raw[kind as StepKind];
  const step = newStep(kind as StepKind);
  const args = isObject(arg) ? arg : {};
  switch (kind as StepKind) {
    case 'wait':
    case 'click':
      return { ...step, selector: text(arg) };
    case 'delay':
      return { ...step, ms: text(arg) };
    case 'fill':
      return {
        ...step,
        selector: text(args.selector),
        text: text(args.text),
        ms: text(args.delay),
      };
    case 'press':
      return { ...step, keyName: text(arg) };
    case 'scroll': {
      const direction = args.direction as ScrollDirection;
      if (!SCROLL_DIRECTIONS.includes(direction)) return null;
      return { ...step, direction, selector: text(args.selector) };
    }
    case 'evaluate':
      return { ...step, script: text(arg) };
    case 'infinite_scroll':
      return { ...step, scrolls: text(args.max_scrolls), ms: text(args.delay) };
  }
}

/**
 * The editor's steps for saved instructions. A step gets inputs only when saving it
 * untouched writes back the very JSON that was saved; any other (an unknown kind, an extra
 * field, a short form such as `"scroll": "down"`) is kept opaque, so an edit never loses
 * or rewrites a step this dashboard does not fully understand.
 */
export function toSteps(v: unknown): StepDraft[] {
  let list: unknown = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.map((raw: unknown) => {
    const step = readStep(raw);
    if (step && JSON.stringify(stepToInstruction(step)) === JSON.stringify(raw)) return step;
    return { ...newStep('wait'), kind: 'opaque', raw };
  });
}
