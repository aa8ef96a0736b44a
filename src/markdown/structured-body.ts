/**
 * The text a page gives only as schema.org data (`<script type="application/ld+json">`):
 * pages rendered in the browser from a script ship their body in the page's structured data
 * for search engines, and the markup a client without scripts reads holds only chrome.
 * Read are `articleBody` (Article and its kinds), a HowTo's description and steps and a
 * Recipe's description, ingredients and instructions. index.ts uses it only when the
 * page's own markup yields next to nothing.
 */

/** JSON-LD blocks longer than this are not read (a page's data is far smaller). */
const MAX_JSON = 2_000_000;

/** Returns the longest body found, as HTML; '' when none. */
export function structuredBody(scripts: readonly string[]): string {
  return longestIn(scripts, bodiesIn);
}

/**
 * The description of the page's schema.org Product (or ProductGroup), as HTML; '' when none.
 * A shop whose product page is rendered by a script ships it there for search engines.
 */
export function productDescription(scripts: readonly string[]): string {
  return longestIn(scripts, descriptionsIn);
}

/** The longest text `read` finds in the JSON-LD blocks that parse. */
function longestIn(
  scripts: readonly string[],
  read: (data: unknown, depth: number) => string[],
): string {
  let best = '';
  for (const data of parsedBlocks(scripts)) {
    for (const html of read(data, 0)) if (html.length > best.length) best = html;
  }
  return best;
}

/** The names of the page's schema.org Products (or ProductGroups). */
export function productNames(scripts: readonly string[]): string[] {
  const out: string[] = [];
  for (const data of parsedBlocks(scripts)) {
    out.push(
      ...productsIn(data, 0, (product) => (typeof product.name === 'string' ? product.name : '')),
    );
  }
  return out;
}

/** The JSON-LD blocks that parse, each within MAX_JSON. */
function* parsedBlocks(scripts: readonly string[]): Generator<unknown> {
  for (const source of scripts) {
    if (source.length > MAX_JSON) continue;
    let data: unknown;
    try {
      data = JSON.parse(source);
    } catch {
      continue;
    }
    yield data;
  }
}

function descriptionsIn(data: unknown, depth: number): string[] {
  return productsIn(data, depth, (product) => asHtml(product.description));
}

/** `pick` of every Product object in `data` (arrays, nested values), depth-limited; '' left out. */
function productsIn(data: unknown, depth: number, pick: (product: Json) => string): string[] {
  if (depth > 8) return [];
  if (Array.isArray(data)) return data.flatMap((item) => productsIn(item, depth + 1, pick));
  if (!isObject(data)) return [];
  const out: string[] = [];
  if (typesOf(data).some((t) => PRODUCT.test(t))) out.push(pick(data));
  for (const value of Object.values(data)) {
    if (typeof value === 'object') out.push(...productsIn(value, depth + 1, pick));
  }
  return out.filter((text) => text !== '');
}

const PRODUCT = /^(?:https?:\/\/schema\.org\/)?Product(?:Group)?$/;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;

function typesOf(obj: Json): string[] {
  const t = obj['@type'];
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/** Bodies of every object in `data` (arrays, `@graph`, nested values), depth-limited. */
function bodiesIn(data: unknown, depth: number): string[] {
  if (depth > 8) return [];
  if (Array.isArray(data)) return data.flatMap((item) => bodiesIn(item, depth + 1));
  if (!isObject(data)) return [];
  const out: string[] = [];
  const types = typesOf(data);
  if (typeof data.articleBody === 'string') out.push(asHtml(data.articleBody));
  if (types.includes('HowTo')) {
    out.push(asHtml(data.description) + steps(data.step, 0));
  } else if (types.includes('Recipe')) {
    const ingredients = Array.isArray(data.recipeIngredient)
      ? `<ul>${data.recipeIngredient
          .filter((x): x is string => typeof x === 'string')
          .map((x) => `<li>${escapeHtml(x)}</li>`)
          .join('')}</ul>`
      : '';
    out.push(asHtml(data.description) + ingredients + steps(data.recipeInstructions, 0));
  }
  for (const [key, value] of Object.entries(data)) {
    if (key !== 'articleBody' && typeof value === 'object') out.push(...bodiesIn(value, depth + 1));
  }
  return out.filter((html) => html !== '');
}

/** HowToStep / HowToSection / HowToDirection lists, or plain strings, as HTML. */
function steps(value: unknown, depth: number): string {
  if (depth > 4) return '';
  if (typeof value === 'string') return asHtml(value);
  if (Array.isArray(value)) return value.map((v) => steps(v, depth + 1)).join('');
  if (!isObject(value)) return '';
  const name = typeof value.name === 'string' ? `<h3>${escapeHtml(value.name)}</h3>` : '';
  const text = typeof value.text === 'string' ? asHtml(value.text) : '';
  return name + text + steps(value.itemListElement, depth + 1);
}

/** A string that holds markup is taken as HTML; plain text becomes paragraphs. */
function asHtml(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) return '';
  if (/<\/?(?:p|br|div|ul|ol|li|h[1-6]|strong|em|a)\b/i.test(value)) return value;
  return value
    .split(/\n\s*\n|\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
