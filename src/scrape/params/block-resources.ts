import { RESOURCE_TYPES, type ResourceType } from '../types.js';
import { invalidValue } from './invalid.js';

const NAME = 'block_resources';
const ALLOWED: ReadonlySet<string> = new Set(RESOURCE_TYPES);
const ALLOWED_TEXT = RESOURCE_TYPES.join(', ');

/**
 * A comma-separated list (contract 2.4): items are trimmed and lower-cased, empty items
 * (a trailing comma) are skipped, duplicates collapse, and `none` or an empty value means
 * no blocking. JSON layers may also send an array of type names.
 */
export function parseBlockResources(value: unknown): ResourceType[] {
  let items: unknown[];
  if (typeof value === 'string') items = value.split(',');
  else if (Array.isArray(value)) items = value;
  else throw invalidValue(NAME, `expected a comma-separated list of ${ALLOWED_TEXT}, or none`);

  const names: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      throw invalidValue(NAME, `expected a comma-separated list of ${ALLOWED_TEXT}, or none`);
    }
    const name = item.trim().toLowerCase();
    if (name !== '') names.push(name);
  }
  if (names.length === 1 && names[0] === 'none') return [];

  const types = new Set<ResourceType>();
  for (const name of names) {
    if (name === 'none') throw invalidValue(NAME, 'none cannot be combined with other types');
    if (!ALLOWED.has(name)) {
      throw invalidValue(NAME, `unknown type ${name}; allowed types: ${ALLOWED_TEXT}`);
    }
    types.add(name as ResourceType);
  }
  return [...types];
}

/** The stored form in workflow configs: the documented "comma plus space" list, or `none`. */
export function formatBlockResources(types: readonly ResourceType[]): string {
  return types.length === 0 ? 'none' : types.join(', ');
}
