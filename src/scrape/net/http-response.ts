/** Reading an HTTP answer's head, shared by the HTTP client and the fetch engine. */
import type { IncomingHttpHeaders } from 'node:http';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A header's value; repeated headers joined as one list. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Undoes a body's gzip or other coding, bounded (a gzipped sitemap file, too). */
export { decompress } from '../engines/fetch/read-body.js';
