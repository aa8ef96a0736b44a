/**
 * Request headers of a desktop Chrome navigation. Sites serve bots stripped or blocked
 * pages; sending what a browser sends gets the page a person would see.
 */

/** Default User-Agent of plain fetches: desktop Chrome on Windows. */
export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';

/** User-Agent of a `mobile` fetch: Chrome on Android. */
export const MOBILE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36';

/** Only what we can decode: Node 20's zlib has no zstd. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

export function navigationHeaders(userAgent: string): Record<string, string> {
  return {
    'user-agent': userAgent,
    accept:
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
    'accept-encoding': ACCEPT_ENCODING,
    'upgrade-insecure-requests': '1',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'none',
    'sec-fetch-user': '?1',
  };
}
