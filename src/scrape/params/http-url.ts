import { invalidValue } from './invalid.js';

/**
 * An absolute http(s) URL, returned in its WHATWG-normalised form (punycode host, resolved
 * dot segments) so that engines, the SSRF guard and stored configs all see the same string.
 * Whether the host is public is decided later, at resolution time (contract 17).
 */
export function parseHttpUrlParam(name: string, value: unknown): string {
  if (typeof value === 'string') {
    const url = URL.parse(value.trim());
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') {
      return url.href;
    }
  }
  throw invalidValue(name, 'expected an absolute http or https URL');
}
