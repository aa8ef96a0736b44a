/**
 * extract_rules as the scraper takes them: ScrapingBee's syntax normalised into fields, and
 * every mistake refused with a 400 that names the field and says what is wrong, before
 * anything is fetched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeWorkflowConfig, parseScraperRequest } from '../../../src/scrape/params/index.js';
import { assertAppError } from './assert-app-error.js';

const URL_OK = 'https://example.com/';
const parse = (rules: unknown, extra: Record<string, string> = {}) =>
  parseScraperRequest({
    url: URL_OK,
    extract_rules: typeof rules === 'string' ? rules : JSON.stringify(rules),
    ...extra,
  });

describe('extract_rules are normalised into fields', () => {
  it('a selector string is the text of the first match; selector@attr its attribute', () => {
    assert.deepEqual(parse({ title: 'h1', link: 'a.next@HREF', lang: '@lang' }).extractRules, [
      { name: 'title', selector: 'h1', type: 'item', output: 'text', clean: true },
      {
        name: 'link',
        selector: 'a.next',
        type: 'item',
        output: { attribute: 'href' },
        clean: true,
      },
      { name: 'lang', selector: '', type: 'item', output: { attribute: 'lang' }, clean: true },
    ]);
  });

  it('an object rule keeps its type, output and clean, with nested rules as fields', () => {
    const rules = {
      products: {
        selector: 'li.product',
        selector_type: 'css',
        type: 'list',
        output: { name: 'h2', price: { selector: '.price', clean: false }, url: 'a@href' },
      },
      body: { selector: 'main', output: 'html' },
      table: { selector: 'table', output: 'table_json' },
    };
    assert.deepEqual(parse(rules).extractRules, [
      {
        name: 'products',
        selector: 'li.product',
        type: 'list',
        output: {
          fields: [
            { name: 'name', selector: 'h2', type: 'item', output: 'text', clean: true },
            { name: 'price', selector: '.price', type: 'item', output: 'text', clean: false },
            {
              name: 'url',
              selector: 'a',
              type: 'item',
              output: { attribute: 'href' },
              clean: true,
            },
          ],
        },
        clean: true,
      },
      { name: 'body', selector: 'main', type: 'item', output: 'html', clean: true },
      { name: 'table', selector: 'table', type: 'item', output: 'table_json', clean: true },
    ]);
  });

  it('a selector with @ inside an attribute test is a selector, not an attribute', () => {
    const [field] = parse({ mail: 'a[href^="mailto:x@y"]' }).extractRules ?? [];
    assert.deepEqual(field?.output, 'text');
    assert.equal(field?.selector, 'a[href^="mailto:x@y"]');
  });

  it('a field called __proto__ stays a field', () => {
    const fields = parse('{"__proto__": "h1"}').extractRules ?? [];
    assert.deepEqual(
      fields.map((f) => f.name),
      ['__proto__'],
    );
  });

  it('an empty value means no rules', () => {
    assert.equal(parse('').extractRules, null);
  });
});

describe('bad extract_rules are 400s that name the field', () => {
  const cases: [string, unknown, string][] = [
    ['not JSON', '{title: h1}', 'expected a JSON object of field names to rules'],
    ['an array', ['h1'], 'expected a JSON object of field names to rules'],
    ['no field', {}, 'expected at least one field'],
    ['a number rule', { title: 5 }, '"title": expected a CSS selector or an object with selector'],
    [
      'no selector',
      { title: { type: 'item' } },
      '"title": selector is required and must be a string',
    ],
    [
      'an unknown key',
      { title: { selector: 'h1', all: 1 } },
      '"title": unknown key all; expected selector, selector_type, type, output, clean',
    ],
    [
      'a bad type',
      { title: { selector: 'h1', type: 'all' } },
      '"title": type must be "item" or "list"',
    ],
    [
      'a bad output',
      { title: { selector: 'h1', output: 'markdown' } },
      '"title": output must be text, html, @<attribute>, table_json, table_array or an object of rules',
    ],
    [
      'a bad clean',
      { title: { selector: 'h1', clean: 'yes' } },
      '"title": clean must be true or false',
    ],
    [
      'xpath',
      { title: { selector: '//h1', selector_type: 'xpath' } },
      '"title": XPath selectors are not supported; use a CSS selector',
    ],
    [
      'an xpath string',
      { title: '//h1' },
      '"title": XPath selectors are not supported; use a CSS selector',
    ],
    [
      'an invalid selector, nested',
      { items: { selector: 'li', type: 'list', output: { price: 'span[' } } },
      '"items" > "price": "span[" is not a valid CSS selector',
    ],
    [
      'an empty nested rule set',
      { items: { selector: 'li', output: {} } },
      '"items": expected at least one field',
    ],
    [
      'too many fields',
      Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'p'])),
      'at most 100 fields are allowed, nested ones included',
    ],
  ];
  for (const [name, rules, reason] of cases) {
    it(name, () => {
      assert.throws(
        () => parse(rules),
        (error: Error & { status?: number }) => {
          assert.equal(error.status, 400);
          assert.ok(
            error.message.startsWith(`Invalid value for extract_rules: ${reason}`),
            error.message,
          );
          return true;
        },
      );
    });
  }

  it('rules nested past 10 levels', () => {
    let rules: unknown = 'p';
    for (let i = 0; i < 11; i++) rules = { selector: 'div', output: { inner: rules } };
    assertAppError(
      () => parse({ top: rules }),
      `Invalid value for extract_rules: ${['"top"', ...Array(9).fill('"inner"')].join(' > ')}: rules nest at most 10 levels deep`,
    );
  });

  it('with markdown, a screenshot or structured_data: one output type', () => {
    const others: Record<string, string>[] = [
      { markdown: 'true' },
      { render: 'true', screenshot: 'true' },
      { structured_data: 'true' },
    ];
    for (const other of others) {
      assertAppError(
        () => parse({ title: 'h1' }, other),
        'Only one output type can be requested per request.',
      );
    }
  });
});

describe('extract_rules in a workflow config', () => {
  it('are stored in the object form with every key written out, and run as saved', () => {
    const config = normalizeWorkflowConfig({
      url: URL_OK,
      extract_rules: { title: 'h1', links: { selector: 'a', type: 'list', output: '@href' } },
      structured_data: false,
    });
    assert.deepEqual(config, {
      url: URL_OK,
      render: false,
      extract_rules: {
        title: { selector: 'h1', type: 'item', output: 'text', clean: true },
        links: { selector: 'a', type: 'list', output: '@href', clean: true },
      },
      structured_data: false,
    });
    // the stored form parses back to the same fields
    assert.deepEqual(
      parseScraperRequest({ url: URL_OK, config: JSON.stringify(config) }).extractRules,
      parse({ title: 'h1', links: { selector: 'a', type: 'list', output: '@href' } }).extractRules,
    );
  });

  it('bad rules refuse the config with the same 400', () => {
    assertAppError(
      () =>
        normalizeWorkflowConfig({
          url: URL_OK,
          extract_rules: { title: { selector: 'h1', type: 'x' } },
        }),
      'Invalid value for extract_rules: "title": type must be "item" or "list"',
    );
  });
});
