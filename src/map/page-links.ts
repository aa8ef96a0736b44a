/**
 * What a map takes from the start page: its links (`<a href>`, `<area href>`, resolved
 * against `<base href>` and the page's URL) and, for v2's answer, its title and description.
 * A streaming parse (htmlparser2) of the fetched HTML: no DOM, no scripts; fed in slices
 * that give the event loop back, since a page may be as large as MAX_BODY_BYTES.
 */
import { Parser } from 'htmlparser2';
import { eventLoopSlices, forEachSliced } from './event-loop-slices.js';

export interface PageFacts {
  /** Absolute http(s) URLs in document order, duplicates included. */
  links: string[];
  title?: string;
  description?: string;
}

const LINK_TAGS = new Set(['a', 'area']);
/** Longest title or description kept: a page stuffing its head should not bloat the answer. */
const MAX_TEXT = 500;
/** Characters handed to the parser at once, between two looks at the slice's time. */
const CHUNK_CHARS = 16 * 1024;

function tidy(text: string): string | undefined {
  const value = text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  return value === '' ? undefined : value;
}

export async function pageFactsOf(html: string, pageUrl: string): Promise<PageFacts> {
  const hrefs: string[] = [];
  let base: string | null = null;
  let title = '';
  let inTitle = false;
  let titleSeen = false;
  // <svg><title> names a drawing, not the page.
  let svgDepth = 0;
  const meta: Record<string, string> = {};

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'svg') svgDepth += 1;
        else if (name === 'title' && svgDepth === 0 && !titleSeen) inTitle = true;
        else if (name === 'base' && base === null && attributes.href) base = attributes.href;
        else if (LINK_TAGS.has(name) && attributes.href) hrefs.push(attributes.href);
        else if (name === 'meta') {
          const key = (attributes.name ?? attributes.property ?? '').toLowerCase();
          if (key && attributes.content !== undefined && !(key in meta))
            meta[key] = attributes.content;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'svg') svgDepth = Math.max(0, svgDepth - 1);
        else if (name === 'title' && inTitle) {
          inTitle = false;
          titleSeen = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const slices = eventLoopSlices();
  for (let at = 0; at < html.length; at += CHUNK_CHARS) {
    parser.write(html.slice(at, at + CHUNK_CHARS));
    if (slices.due()) await slices.pause();
  }
  parser.end();

  const baseUrl = (base && URL.parse(base, pageUrl)?.href) || pageUrl;
  const links: string[] = [];
  await forEachSliced(
    hrefs,
    (href) => {
      const url = URL.parse(href.trim(), baseUrl);
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) links.push(url.href);
    },
    slices,
  );
  const facts: PageFacts = { links };
  const pageTitle = tidy(title) ?? tidy(meta['og:title'] ?? '');
  const description = tidy(meta.description ?? '') ?? tidy(meta['og:description'] ?? '');
  if (pageTitle) facts.title = pageTitle;
  if (description) facts.description = description;
  return facts;
}
