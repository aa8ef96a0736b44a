/**
 * The page's JSON-LD blocks as objects. A block that is not JSON (trailing commas, a
 * template left unfilled, HTML inside) is skipped: the page's own mistakes never fail a
 * scrape. Comment and CDATA wrappers, which old pages put around scripts, are taken off
 * first. A block holding an array gives each of its objects; anything else (a bare string
 * or number) is not structured data and is left out.
 */
import { nestsDeeperThan } from '../../params/json-depth.js';
import type { JsonValue } from '../../types.js';

/** Objects kept from one page: more is a catalog dump, not a description of the page. */
export const MAX_JSON_LD_OBJECTS = 100;
/**
 * Deeper objects are left out: everything downstream (the worker's JSON.stringify, the
 * result cache, the door's answer) recurses once per level.
 */
const MAX_DEPTH = 64;
const WRAPPERS = /^\s*(?:\/\/\s*)?(?:<!--|<!\[CDATA\[)|(?:\/\/\s*)?(?:-->|\]\]>)\s*$/g;

export function parseJsonLd(blocks: readonly string[]): JsonValue[] {
  const objects: JsonValue[] = [];
  for (const block of blocks) {
    const parsed = parseOrSkip(block.replace(WRAPPERS, ''));
    if (parsed === undefined || nestsDeeperThan(parsed, MAX_DEPTH)) continue;
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      if (objects.length >= MAX_JSON_LD_OBJECTS) return objects;
      objects.push(item as JsonValue);
    }
  }
  return objects;
}

function parseOrSkip(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
