/**
 * `search`: the links that match come first. Firecrawl ranks by the cosine similarity of the
 * term to each URL and drops nothing; this is the simple form of the same idea: a link's
 * URL (decoded), title and description are searched, case-insensitively, and links that
 * contain the whole term rank above links that contain more of its words, which rank above
 * links that contain fewer. Links that contain none keep their place after all of those, so
 * `limit` cuts the least relevant. Equal ranks keep discovery order.
 */
import { forEachSliced } from './event-loop-slices.js';
import type { MapLink } from './types.js';

function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

function searchableText(link: MapLink): string {
  let url = link.url;
  try {
    url = decodeURI(url);
  } catch {
    // A malformed escape: search the URL as written.
  }
  return [url, link.title ?? '', link.description ?? ''].join(' ').toLowerCase();
}

/**
 * Scored in slices that give the event loop back (a map may rank 200,000 links), then
 * gathered by score, highest first: a score is a small whole number, so one bucket per score
 * keeps discovery order within each without a sort over all of them.
 */
export async function rankBySearch(links: readonly MapLink[], search: string): Promise<MapLink[]> {
  const phrase = search.trim().toLowerCase();
  const words = wordsOf(phrase);
  if (phrase === '') return [...links];
  // Scores run from 0 (nothing matched) to 2 × words + 1 (the whole term and every word).
  const buckets: MapLink[][] = Array.from({ length: 2 * words.length + 2 }, () => []);
  await forEachSliced(links, (link) => {
    const text = searchableText(link);
    const matched = words.filter((word) => text.includes(word)).length;
    // The whole term outranks any number of its words.
    const score = (text.includes(phrase) ? words.length + 1 : 0) + matched;
    buckets[score]?.push(link);
  });
  return buckets.reverse().flat();
}
