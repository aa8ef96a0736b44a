/**
 * The caller's extra request headers and languages, as a render applies them to its warm
 * page for one scrape (the page's reset takes them off again, see warm-page.ts).
 * Headers go on every request of the page, as Firecrawl's and Puppeteer's do. Languages
 * become Accept-Language and navigator.language(s) through CDP's user-agent override with
 * an empty user agent, which keeps the context's own (the phone's, for mobile).
 */
import type { ScrapeOptions } from '../../types.js';

export interface RequestIdentity {
  /** Extra headers for every request of the page; empty: none. */
  headers: Record<string, string>;
  /** Comma-separated language tags, most preferred first (Chromium adds the q-values); null: the browser's. */
  acceptLanguage: string | null;
}

/**
 * Headers a caller may not set: the connection's own (Chromium manages them, and a wrong
 * Content-Length or Transfer-Encoding breaks the request), Host (the address is the URL's),
 * and the proxy's.
 */
const REFUSED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** A BCP 47-ish tag (`en`, `en-US`, `zh-Hant-TW`) or `*`: nothing that could split a header. */
const LANGUAGE_TAG = /^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/;
/** More than this many languages is noise (real browsers send a handful). */
const MAX_LANGUAGES = 20;

export function requestIdentityOf(
  options: Pick<ScrapeOptions, 'headers' | 'languages'>,
): RequestIdentity {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers)) {
    if (REFUSED_HEADERS.has(name.toLowerCase()) || typeof value !== 'string') continue;
    // CR/LF would end the header; Chromium refuses them, so drop the header instead of failing.
    if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    headers[name] = value;
  }
  const tags = options.languages
    .map((tag) => tag.trim())
    .filter((tag) => LANGUAGE_TAG.test(tag))
    .slice(0, MAX_LANGUAGES);
  return { headers, acceptLanguage: tags.length > 0 ? tags.join(',') : null };
}

export function isEmptyIdentity(identity: RequestIdentity): boolean {
  return identity.acceptLanguage === null && Object.keys(identity.headers).length === 0;
}
