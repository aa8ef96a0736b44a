/**
 * One sitemap document (sitemaps.org protocol) read into the URLs it lists: a `<urlset>` of
 * pages or a `<sitemapindex>` of further sitemaps; gzipped files (`sitemap.xml.gz`) are
 * inflated here, bounded like any body. The protocol's plain-text form (one URL a line) is
 * read too. Anything else (an HTML page served at /sitemap.xml, say) lists nothing.
 *
 * The XML is read by htmlparser2's streaming parser in XML mode, fed in slices that give the
 * event loop back (event-loop-slices.ts), and stops at `maxEntries`. It never expands entities
 * a document defines (only XML's five and numeric references are decoded). The `sitemap`
 * package did this before: its sax parser took 5.4 s of one synchronous run for a
 * 50,000-entry index (issue 24).
 */
import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import { decompress } from '../scrape/net/http-response.js';
import { eventLoopSlices } from './event-loop-slices.js';

export type SitemapDocument =
  | { kind: 'urlset'; urls: string[] }
  | { kind: 'index'; sitemaps: string[] }
  | { kind: 'none' };

/** The protocol's bound: a sitemap lists at most 50,000 URLs, an index 50,000 sitemaps. */
export const MAX_SITEMAP_ENTRIES = 50_000;

export interface SitemapReadOptions {
  /** Largest inflated size of a gzipped document (its compressed size was bounded by the fetch). */
  maxBytes: number;
  /** Pages read at most; the rest of the document is not parsed. Default MAX_SITEMAP_ENTRIES. */
  maxEntries?: number;
  /** Sitemaps read at most from an index (no more than can be fetched). Default `maxEntries`. */
  maxIndexEntries?: number;
  /** Stops the parse; what was read so far is the answer. */
  signal?: AbortSignal;
}

/** The root element, with or without a namespace prefix. */
const ROOT = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s/>]/;
/** Bytes decoded and handed to the parser at once, between two looks at the slice's time. */
const CHUNK_BYTES = 16 * 1024;
/** Where the root element is looked for first: an index read for 50 entries is not decoded whole. */
const HEAD_BYTES = 64 * 1024;

function isGzip(bytes: Buffer): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function prefixOf(name: string): string {
  return name.slice(0, name.indexOf(':') + 1);
}

/**
 * The `<loc>` of each entry (`<url>` or `<sitemap>`) directly under the root, in the root's
 * namespace prefix: an extension's own `<image:loc>` is not a page. A broken document still
 * gives the entries before the break.
 */
async function locsOf(
  bytes: Buffer,
  root: 'urlset' | 'sitemapindex',
  maxEntries: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const entry = root === 'urlset' ? 'url' : 'sitemap';
  const locs: string[] = [];
  const open: string[] = [];
  let rootDepth = -1;
  let prefix = '';
  let loc: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        open.push(name);
        if (rootDepth < 0) {
          if (name.slice(name.indexOf(':') + 1) !== root) return;
          rootDepth = open.length;
          prefix = prefixOf(name);
        } else if (
          open.length === rootDepth + 2 &&
          name === `${prefix}loc` &&
          open[rootDepth] === `${prefix}${entry}`
        ) {
          loc = '';
        }
      },
      ontext(chunk) {
        if (loc !== null) loc += chunk;
      },
      onclosetag() {
        open.pop();
        if (loc === null || open.length !== rootDepth + 1) return;
        const url = loc.trim();
        if (url !== '' && locs.length < maxEntries) locs.push(url);
        loc = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  // The protocol requires UTF-8; the decoder keeps a character cut by a chunk's end whole.
  const utf8 = new StringDecoder('utf8');
  const slices = eventLoopSlices();
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (locs.length >= maxEntries || signal?.aborted) return locs;
    parser.write(utf8.write(bytes.subarray(at, at + CHUNK_BYTES)));
    if (slices.due()) await slices.pause();
  }
  parser.end(utf8.end());
  return locs;
}

function plainTextUrls(text: string, maxEntries: number): string[] {
  const urls: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^https?:\/\//i.test(line) && !/\s/.test(line)) urls.push(line);
    if (urls.length >= maxEntries) break;
  }
  return urls;
}

/** The document's entries, absolute URLs as written. */
export async function readSitemap(
  body: Buffer,
  contentType: string | null,
  options: SitemapReadOptions,
): Promise<SitemapDocument> {
  const { maxBytes, maxEntries = MAX_SITEMAP_ENTRIES, signal } = options;
  const maxIndexEntries = options.maxIndexEntries ?? maxEntries;
  const bytes = isGzip(body) ? await decompress(body, 'gzip', maxBytes) : body;
  let root = ROOT.exec(bytes.subarray(0, HEAD_BYTES).toString('utf8'))?.[1];
  // Decoded whole only when the root is not near the top (a plain-text sitemap, a page).
  let text = '';
  if (!root) {
    text = bytes.toString('utf8');
    root = ROOT.exec(text)?.[1];
  }
  if (root === 'sitemapindex') {
    return { kind: 'index', sitemaps: await locsOf(bytes, root, maxIndexEntries, signal) };
  }
  if (root === 'urlset') {
    return { kind: 'urlset', urls: await locsOf(bytes, root, maxEntries, signal) };
  }
  const plain = !text.includes('<') || /^text\/plain\b/i.test(contentType ?? '');
  return plain ? { kind: 'urlset', urls: plainTextUrls(text, maxEntries) } : { kind: 'none' };
}
