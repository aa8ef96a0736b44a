/**
 * A step's selector checked before any browser starts (issue 30): a broken one used to reach
 * Playwright and come back after the page load as Chromium's own words ("… while parsing css
 * selector "div[". Did you mean to CSS.escape it?").
 *
 * Steps run through Playwright's `page.locator`, so a selector is Playwright's: parts joined
 * by `>>`, each CSS, `engine=body` (text=, xpath=, role=, ...), a quoted text or an XPath.
 * The parts are split as playwright-core 1.65 splits them (parseSelectorString); the CSS ones
 * are parsed by css-what, which takes any pseudo-class by name (Playwright's :has-text,
 * :visible, :nth-match as well as :has, :is, :where) and refuses what no engine can read.
 */
import { isTraversal, parse } from 'css-what';

/** playwright-core 1.65's engines a selector may name (`engine=body`; `*` captures). */
const ENGINES = new Set([
  'css',
  'xpath',
  'xpath:light',
  'text',
  'text:light',
  'id',
  'id:light',
  'data-testid',
  'data-testid:light',
  'data-test-id',
  'data-test-id:light',
  'data-test',
  'data-test:light',
  'role',
  'nth',
  'visible',
  'light',
]);

/** Why `selector` cannot select anything, in the caller's terms; null when it can. */
export function selectorProblem(selector: string): string | null {
  if (selector.trim() === '') return 'it is empty';
  for (const part of partsOf(selector)) {
    const problem = partProblem(part);
    if (problem !== null) return problem;
  }
  return null;
}

interface Part {
  /** null: no `engine=` prefix, so CSS, a quoted text or an XPath, by its first characters. */
  engine: string | null;
  body: string;
}

function partProblem({ engine, body }: Part): string | null {
  if (engine === null) {
    if (body === '') return 'a ">>" has no selector on one side';
    if (/^(["']).*\1$/s.test(body) && body.length > 1) return null;
    if (/^\(*\/\//.test(body) || body.startsWith('..')) return null;
    return cssProblem(body);
  }
  const name = engine.startsWith('*') ? engine.slice(1) : engine;
  if (!ENGINES.has(name) && !name.startsWith('internal:')) {
    return `"${name}=" is not a selector engine (css=, xpath=, text=, id=, role=, data-testid=, nth=, visible=)`;
  }
  if (body.trim() === '') return `"${name}=" has nothing after it`;
  return name === 'css' ? cssProblem(body.trim()) : null;
}

function cssProblem(css: string): string | null {
  let selectors: ReturnType<typeof parse>;
  try {
    selectors = parse(css);
  } catch (error) {
    const reason = (error as Error).message.replace(/\.$/, '').replace(/found $/, 'found the end');
    return `not valid CSS: ${lowerFirst(reason)}`;
  }
  for (const tokens of selectors) {
    // A combinator first is relative to the page (Playwright reads `> a` as `:scope > a`);
    // last, it has nothing to combine with.
    const last = tokens.at(-1);
    if (last && isTraversal(last) && last.type !== 'descendant') {
      return 'not valid CSS: it ends with a combinator (>, + or ~) with nothing after it';
    }
  }
  return strayCharacter(css);
}

/** Where an identifier must start: a class or id name. */
const NAME_START = /[A-Za-z_\u0080-\uFFFF\\-]/;
/** What a selector's text may hold outside strings, brackets and parentheses. */
const TOP_LEVEL = /[A-Za-z0-9_\u0080-\uFFFF\s#.:*|>+~,()[\]"'\\-]/;

/**
 * What css-what lets through and Chromium refuses: a character no selector has at its top
 * level (`!x`, `a @b`), and a class or id that is no name (`#foo..bar`, `#123`).
 */
function strayCharacter(css: string): string | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i += 1) {
    const c = css.charAt(i);
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      i += 1;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '(' || c === '[') {
      depth += 1;
    } else if (c === ')' || c === ']') {
      depth -= 1;
    } else if (depth === 0 && !TOP_LEVEL.test(c)) {
      return `not valid CSS: "${c}" cannot appear there`;
    } else if (depth === 0 && (c === '.' || c === '#')) {
      const next = css.charAt(i + 1);
      const name = c === '#' ? (next === '-' ? css.charAt(i + 2) : next) : next;
      if (!NAME_START.test(next) || (c === '#' && /[0-9]/.test(name))) {
        return `not valid CSS: "${c}" must be followed by ${c === '.' ? 'a class' : 'an id'} name that starts with a letter, "_" or "-"`;
      }
    }
  }
  return null;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Playwright's split on `>>` outside quotes, and each part's engine (parseSelectorString). */
function partsOf(selector: string): Part[] {
  const parts: Part[] = [];
  const append = (start: number, end: number) => {
    const part = selector.slice(start, end).trim();
    const eq = part.indexOf('=');
    if (eq !== -1 && /^[a-zA-Z_0-9-+:*]+$/.test(part.slice(0, eq).trim())) {
      parts.push({ engine: part.slice(0, eq).trim(), body: part.slice(eq + 1) });
    } else {
      parts.push({ engine: null, body: part });
    }
  };
  if (!selector.includes('>>')) {
    append(0, selector.length);
    return parts;
  }
  let index = 0;
  let start = 0;
  let quote: string | undefined;
  // Inside `text=` Playwright reads quotes as the text's own characters.
  const inTextBody = () => /^\s*text\s*=(.+)$/s.test(selector.slice(start, index));
  while (index < selector.length) {
    const c = selector[index];
    if (c === '\\' && index + 1 < selector.length) {
      index += 2;
    } else if (c === quote) {
      quote = undefined;
      index += 1;
    } else if (!quote && (c === '"' || c === "'" || c === '`') && !inTextBody()) {
      quote = c;
      index += 1;
    } else if (!quote && c === '>' && selector[index + 1] === '>') {
      append(start, index);
      index += 2;
      start = index;
    } else {
      index += 1;
    }
  }
  append(start, selector.length);
  return parts;
}
