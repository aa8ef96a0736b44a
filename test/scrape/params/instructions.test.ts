import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { instructionSchema, parseInstructions } from '../../../src/scrape/params/instructions.js';
import { assertAppError } from './assert-app-error.js';

const ONE_OF = 'exactly one of wait, fill, click, delay, press, scroll, evaluate, infinite_scroll';

describe('parseInstructions names the bad step and why', () => {
  const cases: [string, unknown, string][] = [
    ['a number', 5, `expected an object with ${ONE_OF}`],
    ['null', null, `expected an object with ${ONE_OF}`],
    ['an array', [{ wait: 'a' }], `expected an object with ${ONE_OF}`],
    ['an empty object', {}, `expected ${ONE_OF}`],
    ['two keys', { wait: 'a', click: 'b' }, `expected ${ONE_OF}, got wait, click`],
    ['an unknown key', { hover: '#a' }, `unknown key hover; expected ${ONE_OF}`],
    // The Firecrawl door's own kinds do not exist on the native route.
    ['click_all', { click_all: 'a' }, `unknown key click_all; expected ${ONE_OF}`],
    ['write', { write: 'hello' }, `unknown key write; expected ${ONE_OF}`],
    [
      'screenshot',
      { screenshot: { fullPage: true } },
      `unknown key screenshot; expected ${ONE_OF}`,
    ],
    ['snapshot', { snapshot: true }, `unknown key snapshot; expected ${ONE_OF}`],
    ['press empty', { press: '' }, 'press must be a non-empty key name, e.g. Enter'],
    ['press a key code', { press: 13 }, 'press must be a non-empty key name, e.g. Enter'],
    [
      'scroll sideways',
      { scroll: 'left' },
      'scroll must be "down", "up" or an object with direction',
    ],
    [
      'scroll by pixels',
      { scroll: 100 },
      'scroll must be "down", "up" or an object with direction',
    ],
    ['scroll without direction', { scroll: { selector: '#a' } }, 'scroll.direction is required'],
    [
      'scroll with a bad direction',
      { scroll: { direction: 'DOWN' } },
      'scroll.direction must be "down" or "up"',
    ],
    [
      'scroll with an empty selector',
      { scroll: { direction: 'up', selector: '' } },
      'scroll.selector must be a non-empty string',
    ],
    [
      'scroll with an extra field',
      { scroll: { direction: 'up', amount: 3 } },
      'unknown key scroll.amount; expected direction, selector',
    ],
    ['evaluate empty', { evaluate: '' }, 'evaluate must be a non-empty string of JavaScript'],
    [
      'evaluate a function object',
      { evaluate: { script: '1' } },
      'evaluate must be a non-empty string of JavaScript',
    ],
    [
      'infinite_scroll false',
      { infinite_scroll: false },
      'infinite_scroll must be true or an object with max_scrolls, delay',
    ],
    [
      'infinite_scroll with zero scrolls',
      { infinite_scroll: { max_scrolls: 0 } },
      'infinite_scroll.max_scrolls must be an integer from 1 to 100',
    ],
    [
      'infinite_scroll with 101 scrolls',
      { infinite_scroll: { max_scrolls: 101 } },
      'infinite_scroll.max_scrolls must be an integer from 1 to 100',
    ],
    [
      'infinite_scroll with a fractional count',
      { infinite_scroll: { max_scrolls: 2.5 } },
      'infinite_scroll.max_scrolls must be an integer from 1 to 100',
    ],
    [
      'infinite_scroll with a long delay',
      { infinite_scroll: { delay: 10_001 } },
      'infinite_scroll.delay must be a number from 0 to 10000',
    ],
    [
      'infinite_scroll with a delay as a string',
      { infinite_scroll: { delay: '500' } },
      'infinite_scroll.delay must be a number from 0 to 10000',
    ],
    [
      'infinite_scroll with an extra field',
      { infinite_scroll: { until: '#end' } },
      'unknown key infinite_scroll.until; expected max_scrolls, delay',
    ],
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

  it('takes press, evaluate and both forms of scroll as they are', () => {
    const steps = parseInstructions(
      JSON.stringify([
        { press: 'Enter' },
        { scroll: 'down' },
        { scroll: { direction: 'up' } },
        { scroll: { direction: 'down', selector: '#feed' } },
        { scroll: { direction: 'down', selector: null } },
        { evaluate: 'return document.title' },
      ]),
    );
    assert.deepEqual(steps, [
      { press: 'Enter' },
      { scroll: { direction: 'down', selector: null } },
      { scroll: { direction: 'up', selector: null } },
      { scroll: { direction: 'down', selector: '#feed' } },
      { scroll: { direction: 'down', selector: null } },
      { evaluate: 'return document.title' },
    ]);
  });

  it('fills in infinite_scroll defaults: 10 scrolls, 500 ms apart', () => {
    const steps = parseInstructions(
      '[{"infinite_scroll":true},{"infinite_scroll":{}},{"infinite_scroll":{"max_scrolls":3}},{"infinite_scroll":{"delay":0}},{"infinite_scroll":{"max_scrolls":100,"delay":10000}}]',
    );
    assert.deepEqual(steps, [
      { infinite_scroll: { max_scrolls: 10, delay: 500 } },
      { infinite_scroll: { max_scrolls: 10, delay: 500 } },
      { infinite_scroll: { max_scrolls: 3, delay: 500 } },
      { infinite_scroll: { max_scrolls: 10, delay: 0 } },
      { infinite_scroll: { max_scrolls: 100, delay: 10_000 } },
    ]);
  });
});

describe('the OpenAPI instruction schema', () => {
  it('describes what a client sends and what a workflow config stores', () => {
    const sent = [
      { press: 'Tab' },
      { scroll: 'up' },
      { scroll: { direction: 'down', selector: '#feed' } },
      { evaluate: '1 + 1' },
      { infinite_scroll: true },
      { infinite_scroll: { max_scrolls: 4 } },
    ];
    for (const step of [...sent, ...parseInstructions(sent)]) {
      assert.ok(Value.Check(instructionSchema, step), JSON.stringify(step));
    }
  });

  it('leaves out the kinds the native route refuses', () => {
    for (const step of [
      { click_all: 'a' },
      { write: 'x' },
      { snapshot: true },
      { scroll: 'left' },
    ]) {
      assert.ok(!Value.Check(instructionSchema, step), JSON.stringify(step));
    }
  });
});
