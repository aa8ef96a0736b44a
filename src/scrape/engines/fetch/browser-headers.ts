/**
 * Request headers of a Chrome navigation typed into the address bar, in the order Chrome
 * sends them over HTTP/1.1 (recorded from this Chromium on loopback): sites serve bots
 * stripped or blocked pages, and some compare the header set and its order with the user
 * agent's. Client hints and Fetch Metadata go only to potentially trustworthy origins
 * (https, localhost), as Chrome's do.
 */
import {
  acceptLanguage,
  type ChromeIdentity,
  chromeIdentity,
  FALLBACK_CHROME_VERSION,
  secChUa,
} from '../identity/chrome-identity.js';

const FALLBACK_DESKTOP = chromeIdentity({
  chromeVersion: FALLBACK_CHROME_VERSION,
  mobile: false,
  country: null,
});

/** Default User-Agent of plain fetches outside a scrape (site maps): desktop Chrome on Windows. */
export const DEFAULT_USER_AGENT = FALLBACK_DESKTOP.userAgent;

/**
 * Only what we can decode: Node 20's zlib has no zstd, so unlike Chrome (`gzip, deflate,
 * br, zstd`) zstd is left out rather than accepted and then failed on.
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const NAVIGATION_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/** https, or a loopback host: where Chrome sends client hints and Sec-Fetch-*. */
export function isTrustworthy(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1'
  );
}

/** The navigation headers of `identity` for `url`, in Chrome's order. */
export function chromeNavigationHeaders(
  identity: ChromeIdentity,
  url: URL,
  languages: readonly string[] = identity.languages,
): Record<string, string> {
  const trustworthy = isTrustworthy(url);
  const headers: Record<string, string> = {};
  if (trustworthy) {
    headers['sec-ch-ua'] = secChUa(identity.metadata.brands);
    headers['sec-ch-ua-mobile'] = identity.mobile ? '?1' : '?0';
    headers['sec-ch-ua-platform'] = `"${identity.metadata.platform}"`;
  }
  headers['upgrade-insecure-requests'] = '1';
  headers['user-agent'] = identity.userAgent;
  headers.accept = NAVIGATION_ACCEPT;
  if (trustworthy) {
    headers['sec-fetch-site'] = 'none';
    headers['sec-fetch-mode'] = 'navigate';
    headers['sec-fetch-user'] = '?1';
    headers['sec-fetch-dest'] = 'document';
  }
  headers['accept-encoding'] = ACCEPT_ENCODING;
  headers['accept-language'] = acceptLanguage(languages);
  return headers;
}

/** The desktop navigation headers with a given user agent (site maps and robots.txt). */
export function navigationHeaders(userAgent: string): Record<string, string> {
  const headers = chromeNavigationHeaders(FALLBACK_DESKTOP, new URL('https://example.invalid/'));
  for (const name of ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform']) delete headers[name];
  headers['user-agent'] = userAgent;
  return headers;
}
