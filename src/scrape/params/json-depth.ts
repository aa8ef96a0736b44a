/**
 * How deep a caller's JSON may nest: request bodies (api/app.ts checks each once it is
 * parsed) and the JSON-encoded query parameters (`config`, `instructions`). Everything that
 * walks a caller's JSON afterwards (the workflow merge patch, the Firecrawl door's cache key,
 * JSON.stringify into the store) recurses once per level; 10,000 levels overflowed the stack
 * into a 500. No option, schema or config of this service comes near the bound.
 */
import { appError } from '../../errors.js';

export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects or arrays more than `max` levels. Iterative, on purpose. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/** Throws the 400 for JSON nested deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw appError('JSON_TOO_DEEP', MAX_JSON_DEPTH);
}
