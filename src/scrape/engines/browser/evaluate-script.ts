/**
 * The `evaluate` step (Firecrawl's executeJavascript): the caller's script runs in the
 * page's main world and its value comes back as `{type, value}` (`typeof` of the value,
 * and the value as JSON). Scripts are written both ways in the wild, so the script is
 * taken as an expression when it parses as one (`document.title`) and otherwise as the
 * body of a function (`const n = 2; return n * 2`); both may `await`. Node only parses the
 * script (vm.Script compiles, never runs); it runs in the page through CDP, which a page's
 * Content-Security-Policy does not restrict.
 *
 * Values that JSON cannot hold are made safe in the page: functions, symbols and
 * undefined become null (their `type` still says what they were), cycles `"[Circular]"`,
 * DOM nodes their name, big integers and non-finite numbers strings, Maps objects, Sets
 * arrays; nesting deeper than MAX_DEPTH is cut. A value longer than MAX_VALUE_CHARS as
 * JSON fails the step rather than fill the answer.
 */
import { Script } from 'node:vm';
import type { Page } from 'playwright-core';

export interface JavascriptReturn {
  type: string;
  value: unknown;
}

const MAX_DEPTH = 20;
export const MAX_VALUE_CHARS = 1_000_000;

/** The source of an async function running `script`, returning its value. */
export function functionSourceOf(script: string): string {
  // A trailing `;` makes an expression a statement: `document.title;` still means the title.
  const expression = script.trim().replace(/;+\s*$/, '');
  const asExpression = `(async () => (\n${expression}\n))`;
  if (expression !== '' && parses(asExpression)) return asExpression;
  return `(async () => {\n${script}\n})`;
}

function parses(source: string): boolean {
  try {
    new Script(source);
    return true;
  } catch {
    return false;
  }
}

export async function evaluateScript(page: Page, script: string): Promise<JavascriptReturn> {
  let described: { type: string; json?: string; chars?: number };
  try {
    // The one name the script's scope gains is unlikely to shadow a global it reads.
    described = await page.evaluate(`(async () => {
      const pagegrabScriptValue = await (${functionSourceOf(script)})();
      return (${DESCRIBE_VALUE})(pagegrabScriptValue, [${MAX_DEPTH}, ${MAX_VALUE_CHARS}]);
    })()`);
  } catch (error) {
    // The script navigated (a click on a link, location.href = ...): it ran, its value is gone.
    if (/Execution context was destroyed/i.test(String(error))) {
      return { type: 'undefined', value: null };
    }
    throw error;
  }
  if (described.json === undefined) {
    throw new Error(
      `the script's value is ${described.chars} characters as JSON, more than ${MAX_VALUE_CHARS}`,
    );
  }
  return { type: described.type, value: JSON.parse(described.json) };
}

/**
 * Runs in the page: the value's type and its JSON-safe form. Plain JavaScript in a string,
 * not a function of this module: a transpiler that keeps function names (tsx, esbuild)
 * would call its `__name` helper inside, which does not exist in the page.
 */
const DESCRIBE_VALUE = `(value, [maxDepth, maxChars]) => {
  const ancestors = [];
  const safe = (v, depth) => {
    if (v === null) return null;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : String(v);
      case 'bigint':
        return v.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (ancestors.includes(v)) return '[Circular]';
    if (depth >= maxDepth) return '[Too deep]';
    if (typeof Node !== 'undefined' && v instanceof Node) return '[' + v.nodeName + ']';
    ancestors.push(v);
    try {
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toJSON();
      if (v instanceof Map) return safe(Object.fromEntries(v), depth);
      if (v instanceof Set || Array.isArray(v)) {
        return Array.from(v, (item) => {
          const s = safe(item, depth + 1);
          return s === undefined ? null : s;
        });
      }
      const out = {};
      for (const key of Object.keys(v)) {
        let item;
        try {
          item = safe(v[key], depth + 1);
        } catch {
          item = '[Unreadable]'; // a throwing getter, a cross-origin window
        }
        if (item !== undefined) out[key] = item;
      }
      return out;
    } finally {
      ancestors.pop();
    }
  };
  const made = safe(value, 0);
  const json = JSON.stringify(made === undefined ? null : made);
  return json.length > maxChars
    ? { type: typeof value, chars: json.length }
    : { type: typeof value, json };
}`;
