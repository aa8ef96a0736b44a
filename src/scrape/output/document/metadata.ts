/**
 * A page's metadata as Firecrawl reports it (its extract_metadata, apps/api/native/src/html.rs):
 * title, favicon, og* and the other named fields, then every `<meta>` keyed by its name,
 * property or itemprop as written ("og:title", "twitter:card", "description", "keywords",
 * "robots"...): a key met twice becomes a list, except `description` (joined with ", ") and
 * `title` (the first wins). The door adds sourceURL, scrapeId and the like.
 *
 * Differences from Firecrawl, on purpose: the title is trimmed (an empty one counts as
 * missing), and a relative favicon resolves against the page's `<base>` as a browser's does.
 */
import type { PageMetadata } from '../../types.js';
import { absoluteUrl } from './clean-html.js';
import type { PageFacts } from './page-facts.js';

type Value = string | string[];

/** [output field, meta attribute, its value] read from the head (or the page without one). */
const FROM_HEAD: ReadonlyArray<readonly [string, 'property' | 'name', string]> = [
  ['ogTitle', 'property', 'og:title'],
  ['ogDescription', 'property', 'og:description'],
  ['ogUrl', 'property', 'og:url'],
  ['ogImage', 'property', 'og:image'],
  ['ogAudio', 'property', 'og:audio'],
  ['ogDeterminer', 'property', 'og:determiner'],
  ['ogLocale', 'property', 'og:locale'],
];

/** The same, read from the whole page. */
const FROM_PAGE: ReadonlyArray<readonly [string, 'property' | 'name', string]> = [
  ['ogSiteName', 'property', 'og:site_name'],
  ['ogVideo', 'property', 'og:video'],
  ['articleSection', 'name', 'article:section'],
  ['articleTag', 'name', 'article:tag'],
  ['publishedTime', 'property', 'article:published_time'],
  ['modifiedTime', 'property', 'article:modified_time'],
  ['dcTermsKeywords', 'name', 'dcterms.keywords'],
  ['dcDescription', 'name', 'dc.description'],
  ['dcSubject', 'name', 'dc.subject'],
  ['dcTermsSubject', 'name', 'dcterms.subject'],
  ['dcTermsAudience', 'name', 'dcterms.audience'],
  ['dcType', 'name', 'dc.type'],
  ['dcTermsType', 'name', 'dcterms.type'],
  ['dcDate', 'name', 'dc.date'],
  ['dcDateCreated', 'name', 'dc.date.created'],
  ['dcTermsCreated', 'name', 'dcterms.created'],
];

type Tagged = { attribs: Record<string, string>; inHead: boolean };

/** The content of the first meta with attr=value (Firecrawl does not look past it). */
function metaContent(metas: readonly Tagged[], attr: string, value: string): string | undefined {
  return metas.find((m) => m.attribs[attr] === value)?.attribs.content;
}

export function pageMetadata(facts: PageFacts, base: URL | null): PageMetadata {
  // a Map while building: meta names are the page's, and "__proto__" must stay a plain key
  const out = new Map<string, Value>();
  const inHead = (el: Tagged) => !facts.hasHead || el.inHead;
  const headMetas = facts.metas.filter(inHead);

  const title = facts.titleText()?.trim() ?? '';
  if (title) out.set('title', title);

  const links = facts.links.filter(inHead);
  const rels = (el: Tagged) => el.attribs.rel ?? '';
  const icon =
    links.find((el) => rels(el) === 'icon')?.attribs.href ??
    links.find((el) => rels(el).includes('icon'))?.attribs.href;
  if (icon !== undefined) out.set('favicon', absoluteUrl(icon, base));

  if (facts.language !== null) out.set('language', facts.language);

  for (const [field, attr, value] of FROM_HEAD) {
    const content = metaContent(headMetas, attr, value);
    if (content !== undefined) out.set(field, content);
  }
  const alternates = headMetas
    .filter((el) => el.attribs.property === 'og:locale:alternate')
    .flatMap((el) => (el.attribs.content === undefined ? [] : [el.attribs.content]));
  if (alternates.length > 0) out.set('ogLocaleAlternate', alternates);
  for (const [field, attr, value] of FROM_PAGE) {
    const content = metaContent(facts.metas, attr, value);
    if (content !== undefined) out.set(field, content);
  }

  for (const meta of facts.metas) {
    const a = meta.attribs;
    const key = a.name || a.property || a.itemprop;
    const content = a.content;
    if (!key || content === undefined) continue;
    add(out, key, content);
  }

  if (!out.has('title')) {
    for (const key of ['ogTitle', 'og:title', 'twitter:title']) {
      const value = out.get(key);
      if (typeof value === 'string' && value !== '') {
        out.set('title', value);
        break;
      }
    }
  }
  return Object.fromEntries(out);
}

function add(out: Map<string, Value>, key: string, content: string): void {
  const existing = out.get(key);
  if (existing === undefined) out.set(key, content);
  else if (key === 'description') out.set(key, [existing, content].flat().join(', '));
  else if (Array.isArray(existing)) existing.push(content);
  else if (key !== 'title') out.set(key, [existing, content]);
}
