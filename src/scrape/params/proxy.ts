import { PROXY_TYPES, type ProxyType } from '../types.js';
import { invalidValue } from './invalid.js';

const PROXY_TYPE_SET: ReadonlySet<string> = new Set(PROXY_TYPES);
// Well-formedness only: whether a country is served is the proxy pool's answer (contract 20).
const ALPHA2 = /^[A-Za-z]{2}$/;

/** `datacenter` | `residential` | `mobile`, case-insensitive (contract 2.6). */
export function parseProxyType(value: unknown): ProxyType {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (PROXY_TYPE_SET.has(lower)) return lower as ProxyType;
  throw invalidValue('proxy_type', `expected one of ${PROXY_TYPES.join(', ')}`);
}

/**
 * ISO 3166-1 alpha-2, case-insensitive, returned upper-case. An empty value means "any
 * country", so a query can clear a country saved in a workflow.
 */
export function parseProxyCountry(value: unknown): string | null {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    if (ALPHA2.test(trimmed)) return trimmed.toUpperCase();
  }
  throw invalidValue('proxy_country', 'expected a two-letter ISO 3166-1 alpha-2 country code');
}
