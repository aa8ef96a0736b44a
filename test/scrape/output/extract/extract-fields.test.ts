/**
 * extract_rules on a page, the expected JSON written by hand: items and lists, nested lists
 * read within each match, attributes, outer HTML, tables, clean and raw text, no match.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../../../src/errors.js';
import { extractFields } from '../../../../src/scrape/output/extract/extract-fields.js';
import { parseExtractRules } from '../../../../src/scrape/params/extract-rules.js';
import { SHOP_PAGE } from './shop-page.js';

const extract = (rules: unknown, maxChars?: number) =>
  extractFields(SHOP_PAGE, parseExtractRules(JSON.stringify(rules)) ?? [], maxChars);

describe('extractFields', () => {
  it('reads nested lists within each match, in document order', () => {
    const rules = {
      title: 'h1',
      categories: {
        selector: 'section.category',
        type: 'list',
        output: {
          slug: '@data-slug',
          name: 'h2',
          products: {
            selector: 'li.product',
            type: 'list',
            output: {
              sku: '@data-sku',
              name: 'a',
              url: 'a@href',
              price: '.price',
              tags: { selector: '.tags li', type: 'list' },
            },
          },
        },
      },
    };
    assert.deepEqual(extract(rules), {
      title: 'The Shop',
      categories: [
        {
          slug: 'lamps',
          name: 'Lamps',
          products: [
            { sku: 'L1', name: 'Desk lamp', url: '/lamp/1', price: '€ 20', tags: [] },
            {
              sku: 'L2',
              name: 'Floor lamp',
              url: '/lamp/2',
              price: '€ 45',
              tags: ['tall', 'warm'],
            },
          ],
        },
        {
          slug: 'chairs',
          name: 'Chairs',
          products: [{ sku: 'C1', name: 'Stool', url: '/chair/1', price: '€ 15', tags: [] }],
        },
        { slug: 'empty', name: 'Soon', products: [] },
      ],
    });
  });

  it('answers null for an item and [] for a list that match nothing', () => {
    assert.deepEqual(
      extract({
        missing: '.nope',
        missingAttr: 'h1@title',
        missingList: { selector: '.nope', type: 'list' },
        missingNested: { selector: '.nope', output: { a: 'a' } },
      }),
      { missing: null, missingAttr: null, missingList: [], missingNested: null },
    );
  });

  it('text leaves out scripts and styles; clean false keeps the whitespace', () => {
    assert.deepEqual(
      extract({ note: '#note', raw: { selector: 'h1', clean: false }, lang: '@lang' }),
      { note: 'Prices include VAT.', raw: '\n  The   Shop\n', lang: 'en' },
    );
  });

  it('html is the outer HTML of the match', () => {
    assert.deepEqual(extract({ first: { selector: 'li.product', output: 'html' } }), {
      first:
        '<li class="product" data-sku="L1"><a href="/lamp/1">Desk lamp</a> <span class="price">€ 20</span></li>',
    });
  });

  it('tables as rows keyed by the header, or as arrays of cells', () => {
    assert.deepEqual(
      extract({
        hours: { selector: '#hours', output: 'table_json' },
        cells: { selector: 'table', output: 'table_array' },
        notATable: { selector: 'h1', output: 'table_json' },
      }),
      {
        hours: [
          { Day: 'Monday', Opens: '9:00', '3': 'x' },
          { Day: 'Sunday', Opens: 'closed' },
        ],
        cells: [
          ['Day', 'Opens', ''],
          ['Monday', '9:00', 'x'],
          ['Sunday', 'closed'],
        ],
        notATable: [],
      },
    );
  });

  it('a field called __proto__ is a key of the answer', () => {
    const answer = extractFields(SHOP_PAGE, parseExtractRules('{"__proto__": "h1"}') ?? []);
    assert.equal(JSON.stringify(answer), '{"__proto__":"The Shop"}');
  });

  it('an answer past its bound is a 422, not a worker out of memory', () => {
    assert.throws(
      () => extract({ all: { selector: '*', type: 'list', output: 'html' } }, 2000),
      (error: unknown) => {
        assert.ok(isAppError(error));
        assert.equal(error.status, 422);
        assert.equal(
          error.message,
          'The extracted fields exceed 2000 characters: narrow the extract_rules',
        );
        return true;
      },
    );
  });
});
