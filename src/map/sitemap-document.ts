/**
 * One sitemap document (sitemaps.org protocol) read into the URLs it lists: a `<urlset>` of
 * pages or a `<sitemapindex>` of further sitemaps, parsed by the `sitemap` package (a sax
 * stream parser that refuses entity expansion); gzipped files (`sitemap.xml.gz`) are
 * inflated here, bounded like any body. The protocol's plain-text form (one URL a line) is
 * read too. Anything else (an HTML page served at /sitemap.xml, say) lists nothing.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ErrorLevel,
  type IndexItem,
  type SitemapItem,
  XMLToSitemapIndexStream,
  XMLToSitemapItemStream,
} from 'sitemap';
import { decompress } from '../scrape/engines/fetch/read-body.js';

export type SitemapDocument =
  | { kind: 'urlset'; urls: string[] }
  | { kind: 'index'; sitemaps: string[] }
  | { kind: 'none' };

/** The root element, with or without a namespace prefix. */
const ROOT = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s/>]/;

function isGzip(bytes: Buffer): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function parsed<T>(
  parser: XMLToSitemapItemStream | XMLToSitemapIndexStream,
  text: string,
): Promise<T[]> {
  const items: T[] = [];
  parser.on('data', (item: T) => items.push(item));
  // A broken document still gives the entries before the break.
  await pipeline(Readable.from([text]), parser).catch(() => undefined);
  return items;
}

// Silent: a sitemap with extensions it does not know (news, images) is not worth a log line.
const quiet = { level: ErrorLevel.SILENT, logger: false } as const;

function plainTextUrls(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\//i.test(line) && !/\s/.test(line));
}

/**
 * The document's entries, absolute URLs as written. `maxBytes` bounds the inflated size of
 * a gzipped document (its compressed size was bounded by the fetch).
 */
export async function readSitemap(
  body: Buffer,
  contentType: string | null,
  maxBytes: number,
): Promise<SitemapDocument> {
  const bytes = isGzip(body) ? await decompress(body, 'gzip', maxBytes) : body;
  // The protocol requires UTF-8.
  const text = bytes.toString('utf8');
  const root = ROOT.exec(text)?.[1];
  if (root === 'sitemapindex') {
    const items = await parsed<IndexItem>(new XMLToSitemapIndexStream(quiet), text);
    return { kind: 'index', sitemaps: items.map((item) => item.url).filter(Boolean) };
  }
  if (root === 'urlset') {
    const items = await parsed<SitemapItem>(new XMLToSitemapItemStream(quiet), text);
    return { kind: 'urlset', urls: items.map((item) => item.url).filter(Boolean) };
  }
  const plain = !text.includes('<') || /^text\/plain\b/i.test(contentType ?? '');
  return plain ? { kind: 'urlset', urls: plainTextUrls(text) } : { kind: 'none' };
}
