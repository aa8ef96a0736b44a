/**
 * OpenGraph and Twitter cards from the page's `<meta>` elements, keyed as written
 * (`og:title`, `article:published_time`, `twitter:card`): OpenGraph's own namespaces
 * (og:, article:, book:, profile:, music:, video:, product:, fb:) from `property` (or
 * `name`, which many sites write instead), Twitter's from `name` (or `property`). A key met
 * twice becomes a list, in document order (`og:image` and its `og:image:width` repeat per
 * image).
 */
import type { PageFacts } from '../document/page-facts.js';

export type Cards = Record<string, string | string[]>;

const OPEN_GRAPH = /^(og|article|book|profile|music|video|product|fb):/i;
const TWITTER = /^twitter:/i;

export function socialCards(facts: PageFacts): { openGraph: Cards; twitter: Cards } {
  const openGraph = new Map<string, string | string[]>();
  const twitter = new Map<string, string | string[]>();
  for (const { attribs } of facts.metas) {
    const content = attribs.content;
    if (content === undefined) continue;
    const og = [attribs.property, attribs.name].find((key) => key && OPEN_GRAPH.test(key));
    if (og) add(openGraph, og.toLowerCase(), content);
    const tw = [attribs.name, attribs.property].find((key) => key && TWITTER.test(key));
    if (tw) add(twitter, tw.toLowerCase(), content);
  }
  // Maps while building: "__proto__" is a key like any other here
  return { openGraph: Object.fromEntries(openGraph), twitter: Object.fromEntries(twitter) };
}

function add(cards: Map<string, string | string[]>, key: string, content: string): void {
  const existing = cards.get(key);
  if (existing === undefined) cards.set(key, content);
  else if (Array.isArray(existing)) existing.push(content);
  else cards.set(key, [existing, content]);
}
