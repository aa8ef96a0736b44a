import { invalidValue } from './invalid.js';

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/**
 * `true`/`false`/`1`/`0`, case-insensitive (contract 2.1). JSON layers (the `config`
 * parameter, workflow configs) may also hold real booleans and the numbers 1/0.
 */
export function parseBooleanParam(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (TRUE.has(lower)) return true;
    if (FALSE.has(lower)) return false;
  }
  throw invalidValue(name, 'expected true or false');
}
