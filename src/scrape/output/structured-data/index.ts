/**
 * The page's own structured data: JSON-LD, microdata, OpenGraph and Twitter cards. Read
 * from the tag stream the page is parsed with anyway (page-facts.ts); a tree is built only
 * for a page with microdata. Nothing here throws on the page's content: malformed JSON-LD
 * and broken markup give less data, never a failed scrape.
 */

import { streamTags } from '../../../markdown/index.js';
import type { JsonValue } from '../../types.js';
import { baseOf, PageFacts } from '../document/page-facts.js';
import { type PageTree, parsePage } from '../document/page-tree.js';
import { parseJsonLd } from './json-ld.js';
import { type MicrodataItem, microdataItems } from './microdata.js';
import { type Cards, socialCards } from './social-cards.js';

export { MAX_JSON_LD_OBJECTS } from './json-ld.js';
export type { MicrodataItem } from './microdata.js';

/** The `structured_data` output. */
export interface StructuredData {
  jsonLd: JsonValue[];
  microdata: MicrodataItem[];
  openGraph: Cards;
  twitter: Cards;
}

/** JSON-LD and microdata of a page whose facts were gathered; `tree`: a parse to reuse, unchanged. */
export function linkedData(
  facts: PageFacts,
  html: string,
  pageUrl: string,
  tree?: PageTree | null,
): Pick<StructuredData, 'jsonLd' | 'microdata'> {
  const microdata = facts.hasMicrodata
    ? microdataItems(tree ?? parsePage(html), baseOf(facts, pageUrl))
    : [];
  return { jsonLd: parseJsonLd(facts.jsonLd), microdata };
}

export function structuredData(html: string, pageUrl: string): StructuredData {
  const facts = new PageFacts();
  streamTags(html, facts);
  return { ...linkedData(facts, html, pageUrl), ...socialCards(facts) };
}
