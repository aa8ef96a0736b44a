/**
 * The `links` format: every `<a href>` of the whole page (not only its main content, and
 * before includeTags/excludeTags), absolute against the page's base, once each, in document
 * order. As Firecrawl: hrefs that are only a fragment ("#top") are left out, other fragments
 * are kept, credentials are stripped, and "http:/x" is read as "http://x". Unlike Firecrawl,
 * only http(s) links are listed (no mailto:, tel:, javascript:).
 */
import type { PageFacts } from './page-facts.js';

export function pageLinks(facts: PageFacts, base: URL | null): string[] {
  const links = new Set<string>();
  for (const anchor of facts.anchors) {
    let href = anchor.trim();
    if (href === '' || href.startsWith('#')) continue;
    href = href.replace(/^(https?):\/(?!\/)/i, '$1://');
    let url: URL;
    try {
      url = new URL(href, base ?? undefined);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.username = '';
    url.password = '';
    links.add(url.href);
  }
  return [...links];
}
