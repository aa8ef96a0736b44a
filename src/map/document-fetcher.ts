/**
 * GETs the few documents a map reads (the page, robots.txt, sitemaps): every hop of every
 * redirect through the SSRF guard, the body bounded on the wire and once decompressed, the
 * whole bounded by the caller's signal. A smaller sibling of the fetch engine: no proxies,
 * no cookies across documents, no charset work (each reader decodes what it needs).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'undici';
import { appError } from '../errors.js';
import { DEFAULT_USER_AGENT, navigationHeaders } from '../scrape/engines/fetch/browser-headers.js';
import { createDispatchers } from '../scrape/engines/fetch/dispatchers.js';
import { toAppError } from '../scrape/engines/fetch/network-errors.js';
import { bodyTooLarge, decompress, readLimited } from '../scrape/engines/fetch/read-body.js';
import { acceptLanguage } from '../scrape/engines/fetch-engine.js';
import { assertPublicUrl, type GuardOptions } from '../scrape/net/ssrf-guard.js';

export interface FetchedDocument {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /** Content-Encoding undone; never more than the fetcher's `maxBytes`. */
  body: Buffer;
}

export interface DocumentRequest {
  signal: AbortSignal;
  /** The caller's languages, sent as Accept-Language. */
  languages?: readonly string[];
}

export interface DocumentFetcher {
  /** Throws the catalog's URL_NOT_ALLOWED for a refused hop, FETCH_FAILED for the rest. */
  get(url: string, options: DocumentRequest): Promise<FetchedDocument>;
  close(): Promise<void>;
}

export interface DocumentFetcherOptions {
  guard: GuardOptions;
  /** Largest body read, on the wire and decompressed (MAX_BODY_BYTES). */
  maxBytes: number;
  /** Sockets open at once to one origin. Default 8: a map reads a handful of documents. */
  connectionsPerOrigin?: number;
}

/** Redirects followed per document (sitemaps and robots.txt rarely need more than two). */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function createDocumentFetcher(options: DocumentFetcherOptions): DocumentFetcher {
  const { guard, maxBytes } = options;
  const dispatchers = createDispatchers(guard, options.connectionsPerOrigin ?? 8);
  const baseHeaders = navigationHeaders(DEFAULT_USER_AGENT);

  async function get(start: string, { signal, languages = [] }: DocumentRequest) {
    const headers =
      languages.length > 0
        ? { ...baseHeaders, 'accept-language': acceptLanguage(languages) }
        : baseHeaders;
    let url = new URL(start);
    for (let hops = 0; ; hops += 1) {
      // The dispatcher checks the socket's address too; this check gives the clear error.
      if (!guard.allowPrivate) await assertPublicUrl(url, guard);
      url.hash = '';
      const response = await request(url, {
        dispatcher: dispatchers.get(null),
        method: 'GET',
        headers,
        signal,
      }).catch((error: unknown) => {
        throw toAppError(error, url.hostname);
      });
      const location = headerOf(response.headers, 'location');
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        if (hops >= MAX_REDIRECTS) {
          throw appError('FETCH_FAILED', `too many redirects (more than ${MAX_REDIRECTS})`);
        }
        url = nextHop(url, location);
        continue;
      }
      const declared = Number(headerOf(response.headers, 'content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        // Destroying emits an abort error nobody else listens for.
        response.body.on('error', () => undefined).destroy();
        throw bodyTooLarge(maxBytes);
      }
      const raw = await readLimited(response.body, maxBytes).catch((error: unknown) => {
        throw toAppError(error, url.hostname);
      });
      const encoding = headerOf(response.headers, 'content-encoding');
      return {
        url: url.href,
        status: response.statusCode,
        contentType: headerOf(response.headers, 'content-type') ?? null,
        body: await decompress(raw, encoding, maxBytes),
      };
    }
  }

  return { get, close: () => dispatchers.close() };
}

function nextHop(from: URL, location: string): URL {
  const next = URL.parse(location, from);
  if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
    throw appError('FETCH_FAILED', `invalid redirect location ${location.slice(0, 200)}`);
  }
  return next;
}
