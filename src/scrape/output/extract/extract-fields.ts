/**
 * `extract_rules` applied to a page, in the output worker: one tree (page-tree.ts, css-select
 * on domhandler, as includeTags does), each field's selector compiled once, nested fields
 * read within each match. What a field answers when nothing matches: null for an item, []
 * for a list. Attributes are answered as written (not resolved against the page).
 *
 * The answer is bounded (MAX_EXTRACTED_CHARS): `{"selector": "*", "type": "list",
 * "output": "html"}` repeats every element once per ancestor, far past the page's size.
 */
import { compile } from 'css-select';
import { DomUtils } from 'htmlparser2';
import { appError } from '../../../errors.js';
import type { ExtractField, JsonValue } from '../../types.js';
import { cleanText, elementText } from '../document/element-text.js';
import {
  findElement,
  type PageElement,
  type PageTree,
  parsePage,
  serializePage,
} from '../document/page-tree.js';
import { tableArray, tableJson } from './tables.js';

/** Characters the answer may hold, its values' and names' together. */
export const MAX_EXTRACTED_CHARS = 16 * 1024 * 1024;
/** What each value costs besides its characters, so a million empty matches count too. */
const VALUE_OVERHEAD = 8;

type Scope = PageTree | PageElement;
type Test = (element: PageElement) => boolean;

class Budget {
  private left: number;
  constructor(private readonly max: number) {
    this.left = max;
  }
  spend(chars: number): void {
    this.left -= chars + VALUE_OVERHEAD;
    if (this.left < 0) throw appError('EXTRACT_TOO_LARGE', this.max);
  }
}

/** The fields of `html`, as the JSON object the caller gets. */
export function extractFields(
  html: string,
  fields: readonly ExtractField[],
  maxChars = MAX_EXTRACTED_CHARS,
): Record<string, JsonValue> {
  const tree = parsePage(html);
  return readFields(tree, fields, new Budget(maxChars), new Map());
}

function readFields(
  scope: Scope,
  fields: readonly ExtractField[],
  budget: Budget,
  tests: Map<string, Test>,
): Record<string, JsonValue> {
  // fromEntries defines own properties: a field named __proto__ stays a field
  return Object.fromEntries(
    fields.map((field) => {
      budget.spend(field.name.length);
      return [field.name, readField(scope, field, budget, tests)];
    }),
  );
}

function readField(
  scope: Scope,
  field: ExtractField,
  budget: Budget,
  tests: Map<string, Test>,
): JsonValue {
  const matches = matchesOf(scope, field, tests);
  if (field.type === 'item') {
    const first = matches[0];
    return first === undefined ? null : fieldValue(first, field, budget, tests);
  }
  return matches.map((element) => fieldValue(element, field, budget, tests));
}

/** The field's matches within the scope, in document order (an item needs only the first). */
function matchesOf(scope: Scope, field: ExtractField, tests: Map<string, Test>): PageElement[] {
  if (field.selector === '') {
    const self = 'name' in scope ? scope : findElement(scope, 'html');
    return self ? [self] : [];
  }
  let test = tests.get(field.selector);
  if (test === undefined) {
    test = compile<PageElement, PageElement>(field.selector) as Test;
    tests.set(field.selector, test);
  }
  const within = scope.children.filter(DomUtils.isTag) as PageElement[];
  if (field.type === 'item') {
    const first = DomUtils.findOne(test, within, true);
    return first ? [first as PageElement] : [];
  }
  return DomUtils.findAll(test, within) as PageElement[];
}

function fieldValue(
  element: PageElement,
  field: ExtractField,
  budget: Budget,
  tests: Map<string, Test>,
): JsonValue {
  const { output } = field;
  if (typeof output === 'object') {
    if ('fields' in output) return readFields(element, output.fields, budget, tests);
    const value = element.attribs[output.attribute];
    if (value === undefined) return null;
    budget.spend(value.length);
    return value;
  }
  switch (output) {
    case 'text': {
      const raw = elementText(element);
      const text = field.clean ? cleanText(raw) : raw;
      budget.spend(text.length);
      return text;
    }
    case 'html': {
      const html = serializePage([element]);
      budget.spend(html.length);
      return html;
    }
    case 'table_json':
      return tableJson(element, field.clean, budget);
    case 'table_array':
      return tableArray(element, field.clean, budget);
  }
}
