import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInstructions } from '../../../src/scrape/params/instructions.js';
import { assertAppError } from './assert-app-error.js';

const ONE_OF = 'exactly one of wait, fill, click, delay';

describe('parseInstructions names the bad step and why', () => {
  const cases: [string, unknown, string][] = [
    ['a number', 5, `expected an object with ${ONE_OF}`],
    ['null', null, `expected an object with ${ONE_OF}`],
    ['an array', [{ wait: 'a' }], `expected an object with ${ONE_OF}`],
    ['an empty object', {}, `expected ${ONE_OF}`],
    ['two keys', { wait: 'a', click: 'b' }, `expected ${ONE_OF}, got wait, click`],
    ['an unknown key', { scroll: 100 }, `unknown key scroll; expected ${ONE_OF}`],
    [
      'a known and an unknown key',
      { click: 'a', force: true },
      `unknown key force; expected ${ONE_OF}`,
    ],
    ['wait not a string', { wait: 5 }, 'wait must be a string'],
    ['click empty', { click: '' }, 'click must be a non-empty string'],
    ['click not a string', { click: ['a'] }, 'click must be a non-empty string'],
    ['delay zero', { delay: 0 }, 'delay must be a number from 1 to 120000'],
    ['delay as a string', { delay: '500' }, 'delay must be a number from 1 to 120000'],
    ['delay beyond any budget', { delay: 120_001 }, 'delay must be a number from 1 to 120000'],
    ['fill a string', { fill: '#a' }, 'fill must be an object with selector and text'],
    ['fill without selector', { fill: { text: 'x' } }, 'fill.selector is required'],
    [
      'fill with null selector',
      { fill: { selector: null, text: 'x' } },
      'fill.selector is required',
    ],
    [
      'fill with empty selector',
      { fill: { selector: '', text: 'x' } },
      'fill.selector must be a non-empty string',
    ],
    ['fill without text', { fill: { selector: '#a' } }, 'fill.text is required'],
    [
      'fill with empty text',
      { fill: { selector: '#a', text: '' } },
      'fill.text must be a non-empty string',
    ],
    [
      'fill with numeric text',
      { fill: { selector: '#a', text: 5 } },
      'fill.text must be a non-empty string',
    ],
    [
      'fill with negative delay',
      { fill: { selector: '#a', text: 'x', delay: -1 } },
      'fill.delay must be a number from 0 to 120000',
    ],
    [
      'fill with an extra field',
      { fill: { selector: '#a', text: 'x', clear: true } },
      'unknown key fill.clear; expected selector, text, delay',
    ],
  ];
  for (const [name, step, reason] of cases) {
    it(`refuses ${name}`, () => {
      const steps = [{ delay: 10 }, step];
      assertAppError(
        () => parseInstructions(JSON.stringify(steps)),
        `Invalid instruction at index 1: ${reason}`,
      );
    });
  }

  for (const value of ['{"wait":"a"}', 'not json', '"[]"', 'null', 42, { wait: 'a' }]) {
    it(`refuses ${JSON.stringify(value)} as not an array`, () => {
      assertAppError(
        () => parseInstructions(value),
        'Invalid value for instructions: expected a JSON-encoded array of instruction objects',
      );
    });
  }

  it('refuses 51 steps and accepts 50', () => {
    const steps = (n: number) => JSON.stringify(Array.from({ length: n }, () => ({ delay: 1 })));
    assert.equal(parseInstructions(steps(50)).length, 50);
    assertAppError(
      () => parseInstructions(steps(51)),
      'Invalid value for instructions: at most 50 steps are allowed, got 51',
    );
  });
});

describe('parseInstructions normalises valid steps', () => {
  it('keeps the order and fills in fill.delay = 0', () => {
    const steps = parseInstructions(
      '[{"wait":"#form"},{"fill":{"selector":"#q","text":"hi"}},{"fill":{"selector":"#r","text":"yo","delay":25}},{"click":"button"},{"delay":1.5}]',
    );
    assert.deepEqual(steps, [
      { wait: '#form' },
      { fill: { selector: '#q', text: 'hi', delay: 0 } },
      { fill: { selector: '#r', text: 'yo', delay: 25 } },
      { click: 'button' },
      { delay: 1.5 },
    ]);
  });

  it('accepts an array as well as its JSON text (JSON layers)', () => {
    assert.deepEqual(parseInstructions([{ click: 'a' }]), [{ click: 'a' }]);
  });

  it('accepts an empty wait selector as the description sets no minimum', () => {
    assert.deepEqual(parseInstructions('[{"wait":""}]'), [{ wait: '' }]);
  });
});
