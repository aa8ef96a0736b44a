/**
 * `extract_rules`: ScrapingBee's extraction rules, checked whole before anything is fetched
 * or charged. A JSON object (JSON-encoded in the query) mapping each field name to a rule:
 *
 * - a CSS selector string: the text of the first match; `selector@attr` (or `@attr` alone,
 *   the element the field is read in) answers that attribute instead;
 * - or an object: `selector` (required), `type` (`item`, the default: the first match or
 *   null; `list`: every match), `output` (`text`, the default; `html`: the outer HTML;
 *   `@attr`; `table_json`; `table_array`; or an object of rules read within each match),
 *   `clean` (default true: whitespace runs collapsed and trimmed), `selector_type` (`auto` or
 *   `css`: XPath is refused, css-select has none).
 *
 * Errors name the field by its path (`"products" > "price"`) and say what is wrong.
 */

import { assertSelectors } from '../output/index.js';
import type { ExtractField, ExtractOutput } from '../types.js';
import { invalidValue } from './invalid.js';
import { assertJsonDepth } from './json-depth.js';

const NAME = 'extract_rules';
/** Fields in all, nested ones included: a page answers one JSON object, not a crawl. */
export const MAX_EXTRACT_FIELDS = 100;
/** Rules inside rules: each level is a walk of every match of the level above. */
export const MAX_EXTRACT_NESTING = 10;
const MAX_NAME_CHARS = 100;
const MAX_SELECTOR_CHARS = 1000;
const RULE_KEYS = ['selector', 'selector_type', 'type', 'output', 'clean'];
const OUTPUTS = 'text, html, @<attribute>, table_json, table_array or an object of rules';
/** `selector@attr`: an attribute name at the very end, after the last `@`. */
const ATTRIBUTE_SUFFIX = /^(.*?)@([^\s"'>/=@[\]]+)$/s;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON-encoded object (query) or an object (JSON layers). */
export function parseExtractRules(value: unknown): ExtractField[] | null {
  let rules: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      rules = JSON.parse(value);
    } catch {
      rules = undefined;
    }
  }
  if (!isObject(rules)) throw invalidValue(NAME, 'expected a JSON object of field names to rules');
  assertJsonDepth(rules);
  const count = { fields: 0 };
  return parseFields(rules, [], count);
}

function parseFields(
  rules: Record<string, unknown>,
  path: string[],
  count: { fields: number },
): ExtractField[] {
  const names = Object.keys(rules);
  if (names.length === 0) {
    throw invalidValue(NAME, `${where(path)}expected at least one field`);
  }
  return names.map((name) => {
    const at = [...path, name];
    if (name === '' || name.length > MAX_NAME_CHARS) {
      throw invalidValue(
        NAME,
        `${where(at)}a field name must be 1 to ${MAX_NAME_CHARS} characters`,
      );
    }
    count.fields++;
    if (count.fields > MAX_EXTRACT_FIELDS) {
      throw invalidValue(
        NAME,
        `at most ${MAX_EXTRACT_FIELDS} fields are allowed, nested ones included`,
      );
    }
    return parseRule(rules[name], at, count);
  });
}

function where(path: string[]): string {
  return path.length === 0 ? '' : `${path.map((name) => JSON.stringify(name)).join(' > ')}: `;
}

function parseRule(rule: unknown, path: string[], count: { fields: number }): ExtractField {
  const name = path[path.length - 1] as string;
  if (typeof rule === 'string') {
    const [selector, output] = shorthand(rule);
    return { name, selector: checkedSelector(selector, path), type: 'item', output, clean: true };
  }
  if (!isObject(rule)) {
    throw invalidValue(NAME, `${where(path)}expected a CSS selector or an object with selector`);
  }
  const extra = Object.keys(rule).find((key) => !RULE_KEYS.includes(key));
  if (extra !== undefined) {
    throw invalidValue(
      NAME,
      `${where(path)}unknown key ${extra}; expected ${RULE_KEYS.join(', ')}`,
    );
  }
  if (typeof rule.selector !== 'string') {
    throw invalidValue(NAME, `${where(path)}selector is required and must be a string`);
  }
  const selectorType = rule.selector_type ?? 'auto';
  if (selectorType === 'xpath') {
    throw invalidValue(NAME, `${where(path)}XPath selectors are not supported; use a CSS selector`);
  }
  if (selectorType !== 'auto' && selectorType !== 'css') {
    throw invalidValue(NAME, `${where(path)}selector_type must be "auto" or "css"`);
  }
  const type = rule.type ?? 'item';
  if (type !== 'item' && type !== 'list') {
    throw invalidValue(NAME, `${where(path)}type must be "item" or "list"`);
  }
  const clean = rule.clean ?? true;
  if (typeof clean !== 'boolean')
    throw invalidValue(NAME, `${where(path)}clean must be true or false`);
  return {
    name,
    selector: checkedSelector(rule.selector, path),
    type,
    output: parseOutput(rule.output ?? 'text', path, count),
    clean,
  };
}

/** `h1` → text; `a@href` → the attribute; `@href` → the attribute of the element itself. */
function shorthand(rule: string): [string, ExtractOutput] {
  const match = ATTRIBUTE_SUFFIX.exec(rule.trim());
  if (!match) return [rule, 'text'];
  return [match[1] as string, { attribute: (match[2] as string).toLowerCase() }];
}

function checkedSelector(selector: string, path: string[]): string {
  const trimmed = selector.trim();
  if (trimmed.length > MAX_SELECTOR_CHARS) {
    throw invalidValue(
      NAME,
      `${where(path)}a selector is at most ${MAX_SELECTOR_CHARS} characters`,
    );
  }
  // XPath would be taken for CSS and match nothing: say so instead
  if (trimmed.startsWith('/') || trimmed.startsWith('(/')) {
    throw invalidValue(NAME, `${where(path)}XPath selectors are not supported; use a CSS selector`);
  }
  const problem = trimmed === '' ? null : assertSelectors([trimmed]);
  if (problem !== null) throw invalidValue(NAME, `${where(path)}${problem}`);
  return trimmed;
}

function parseOutput(output: unknown, path: string[], count: { fields: number }): ExtractOutput {
  if (isObject(output)) {
    if (path.length >= MAX_EXTRACT_NESTING) {
      throw invalidValue(
        NAME,
        `${where(path)}rules nest at most ${MAX_EXTRACT_NESTING} levels deep`,
      );
    }
    return { fields: parseFields(output, path, count) };
  }
  if (
    output === 'text' ||
    output === 'html' ||
    output === 'table_json' ||
    output === 'table_array'
  ) {
    return output;
  }
  if (typeof output === 'string' && /^@[^\s"'>/=@]+$/.test(output)) {
    return { attribute: output.slice(1).toLowerCase() };
  }
  throw invalidValue(NAME, `${where(path)}output must be ${OUTPUTS}`);
}

/** The stored form in workflow configs: ScrapingBee's object form, every key written out. */
export function formatExtractRules(fields: readonly ExtractField[] | null): unknown {
  if (fields === null) return undefined;
  return rulesObject(fields);
}

function rulesObject(fields: readonly ExtractField[]): Record<string, unknown> {
  // fromEntries defines own properties: a field named __proto__ stays a field
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      {
        selector: field.selector,
        type: field.type,
        output:
          typeof field.output === 'string'
            ? field.output
            : 'attribute' in field.output
              ? `@${field.output.attribute}`
              : rulesObject(field.output.fields),
        clean: field.clean,
      },
    ]),
  );
}
