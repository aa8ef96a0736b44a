/**
 * A step's selector is checked before any browser starts (issue 30, point 14): one no page
 * can match is a 400 naming the step, the selector and why; every selector Playwright's
 * `page.locator` takes is let through. The verdicts are compared with the real Chromium's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEFAULTS } from '../../../src/config.js';
import { CHROMIUM_ARGS } from '../../../src/scrape/engines/browser/chromium-process.js';
import { selectorProblem } from '../../../src/scrape/params/instruction-selectors.js';
import { parseInstructions } from '../../../src/scrape/params/instructions.js';
import { assertAppError } from './assert-app-error.js';

/** Taken by Playwright and Chromium: CSS of every kind, Playwright's engines and pseudo-classes. */
const TAKEN = [
  'div',
  '#main > ul li:first-child',
  'a:has(> img)',
  'li:is(.a, .b)',
  'a:where(.b)',
  ':not(.a .b)',
  '[data-x="1" i]',
  'a[href^="http"]',
  'a[href*="?q=1"]',
  'input[name=q]',
  'div:nth-child(2n+1 of .x)',
  'h1 ~ p + span',
  '> a',
  ':scope > a',
  ':has-text("Sign in")',
  'button:text-is("OK")',
  'li:nth-match(li, 2)',
  'input:visible',
  'div >> text=Foo',
  'text=Log in',
  '"Log in"',
  '//div[@id="main"]',
  'xpath=//a',
  'role=button[name="Save"]',
  'id=main',
  'data-testid=x',
  'div >> nth=0',
  'css=div.x',
  '*css=div >> text=x',
  'a[title="x >> y"]',
  'internal:text="x"i',
  '.a\\:b',
];

/** Refused by Playwright or Chromium, and by us, with our reason. */
const REFUSED: [string, string][] = [
  ['div[', 'not valid CSS: expected name, found the end'],
  ['div)', 'not valid CSS: unmatched selector: )'],
  ['a:has(', 'not valid CSS: missing closing parenthesis in :has (a:has()'],
  ['[data-x=1 2]', "not valid CSS: attribute selector didn't terminate"],
  ['a,,b', 'not valid CSS: empty sub-selector'],
  ["a[b='c", "not valid CSS: attribute value didn't end"],
  ['div{', 'not valid CSS: unmatched selector: {'],
  ['div >', 'not valid CSS: it ends with a combinator (>, + or ~) with nothing after it'],
  ['div >> ', 'a ">>" has no selector on one side'],
  ['div >> >> a', 'a ">>" has no selector on one side'],
  [
    'button:text=OK',
    '"button:text=" is not a selector engine (css=, xpath=, text=, id=, role=, data-testid=, nth=, visible=)',
  ],
  ['css=', '"css=" has nothing after it'],
  [
    '#123',
    'not valid CSS: "#" must be followed by an id name that starts with a letter, "_" or "-"',
  ],
  [
    '#foo..bar',
    'not valid CSS: "." must be followed by a class name that starts with a letter, "_" or "-"',
  ],
  ['!x', 'not valid CSS: "!" cannot appear there'],
  ['a @b', 'not valid CSS: "@" cannot appear there'],
];

describe("a step with a selector no page can match is refused in the step's terms", () => {
  it('names the step, the selector and why, for each kind that takes a selector', () => {
    assertAppError(
      () => parseInstructions(JSON.stringify([{ delay: 5 }, { click: 'div[' }])),
      'Invalid instruction at index 1: click selector "div[": not valid CSS: expected name, found the end',
    );
    assertAppError(
      () => parseInstructions([{ wait: '#main' }, { wait: 'a:has(' }]),
      'Invalid instruction at index 1: wait selector "a:has(": not valid CSS: missing closing parenthesis in :has (a:has()',
    );
    assertAppError(
      () => parseInstructions([{ fill: { selector: 'input[name=', text: 'x' } }]),
      'Invalid instruction at index 0: fill.selector selector "input[name=": not valid CSS: attribute selector didn\'t terminate',
    );
    assertAppError(
      () => parseInstructions([{ scroll: { direction: 'down', selector: 'ul >' } }]),
      'Invalid instruction at index 0: scroll.selector selector "ul >": not valid CSS: it ends with a combinator (>, + or ~) with nothing after it',
    );
  });

  it('gives each refused selector its reason', () => {
    for (const [selector, reason] of REFUSED) {
      assert.equal(selectorProblem(selector), reason, selector);
    }
  });

  it('lets every Playwright selector through, and an empty wait as before', () => {
    for (const selector of TAKEN) assert.equal(selectorProblem(selector), null, selector);
    assert.equal(parseInstructions([{ wait: '' }, { click: ':has-text("OK")' }]).length, 2);
  });
});

describe("the verdicts are the real browser's", () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    browser = await chromium.launch({
      executablePath: DEFAULTS.chromiumPath,
      args: [...CHROMIUM_ARGS],
    });
    page = await browser.newPage();
    await page.setContent(
      '<main id="main"><ul><li class="a">x</li></ul><a href="/">Log in</a></main>',
    );
  });
  after(async () => {
    await browser?.close();
  });

  async function takenByPlaywright(selector: string): Promise<boolean> {
    try {
      await page.locator(selector).count();
      return true;
    } catch {
      return false;
    }
  }

  it('Playwright and Chromium take every selector let through and refuse every one refused', async () => {
    for (const selector of TAKEN) assert.equal(await takenByPlaywright(selector), true, selector);
    for (const [selector] of REFUSED)
      assert.equal(await takenByPlaywright(selector), false, selector);
  });
});
