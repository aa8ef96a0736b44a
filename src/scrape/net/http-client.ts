/**
 * The one HTTP client for the service's own outbound requests: the fetch engine's pages,
 * map's documents, robots.txt, sitemaps and webhook deliveries. It holds the address
 * guard's settings (built here only), the pooled guarded dispatchers, the body bounds and
 * decompression, and turns network failures into the catalog's errors. Built once by the
 * composition root and handed to every part that sends requests.
 */
import { type Dispatcher, request } from 'undici';
import { appError } from '../../errors.js';
import { DEFAULT_USER_AGENT, navigationHeaders } from '../engines/fetch/browser-headers.js';
import { createDispatchers, type Dispatchers } from '../engines/fetch/dispatchers.js';
import { toAppError } from '../engines/fetch/network-errors.js';
import { bodyTooLarge, decompress, readLimited } from '../engines/fetch/read-body.js';
import { acceptLanguage } from '../engines/identity/chrome-identity.js';
import { headerValue, REDIRECT_STATUSES } from './http-response.js';
import { assertPublicUrl, type GuardOptions, type LookupFn } from './ssrf-guard.js';

export type { Dispatcher as HttpDispatcher } from 'undici';

export interface HttpClientOptions {
  /** ALLOW_PRIVATE_NETWORKS: reach loopback/private targets (tests, local use). */
  allowPrivateNetworks: boolean;
  /** MAX_BODY_BYTES: largest body read, on the wire and decompressed. */
  maxBodyBytes: number;
  /** Sockets open at once to one origin, per route out. Default 32. */
  connectionsPerOrigin?: number;
  /** DNS resolver for the guard (the DNS cache). Default: the operating system's. */
  lookup?: LookupFn;
  /** Which addresses may be reached. Default: `isPublicAddress`. For tests. */
  isAllowedAddress?: (ip: string) => boolean;
}

export interface HttpRequest {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
  /** Where the request goes out; default the pooled guarded direct route. */
  dispatcher?: Dispatcher;
}

export interface FetchedDocument {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /** Content-Encoding undone; never more than the client's `maxBodyBytes`. */
  body: Buffer;
}

export interface DocumentRequest {
  signal: AbortSignal;
  /** The caller's languages, sent as Accept-Language. */
  languages?: readonly string[];
  /** Largest body read, on the wire and decompressed. Default the client's `maxBodyBytes`. */
  maxBytes?: number;
}

/** What reads documents (map, sitemaps, robots.txt): the client's `get`. */
export type DocumentFetcher = Pick<HttpClient, 'get'>;

export type HttpResponse = Dispatcher.ResponseData;

export interface HttpClient {
  /** The address guard's settings, for the parts that check addresses themselves (browser). */
  readonly guard: GuardOptions;
  readonly maxBodyBytes: number;
  /** The pooled guarded direct route; `verifyTls` false: one accepting any certificate. */
  direct(verifyTls?: boolean): Dispatcher;
  /**
   * Throws URL_NOT_ALLOWED for a non-public host, FETCH_FAILED when it does not resolve.
   * The direct route checks again at the socket; this check gives the clear error (and is
   * the only one through a proxy, which resolves the target itself).
   */
  checkAddress(url: string | URL): Promise<void>;
  /** One request, its address checked first, without following redirects. */
  send(url: URL | string, init: HttpRequest): Promise<HttpResponse>;
  /** A response's body, bounded on the wire and once decompressed (else FETCH_FAILED). */
  readBody(response: HttpResponse, limit?: number): Promise<Buffer>;
  /**
   * GETs a document (a map's page, robots.txt, a sitemap) like a browser, following
   * redirects, every hop checked; throws URL_NOT_ALLOWED for a refused hop, FETCH_FAILED
   * for the rest.
   */
  get(url: string, options: DocumentRequest): Promise<FetchedDocument>;
  close(): Promise<void>;
}

const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;
/** Redirects a document follows (sitemaps and robots.txt rarely need more than two). */
const MAX_DOCUMENT_REDIRECTS = 5;
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const maxBodyBytes = options.maxBodyBytes;
  const guard: GuardOptions = {
    allowPrivate: options.allowPrivateNetworks,
    ...(options.lookup && { lookup: options.lookup }),
    ...(options.isAllowedAddress && { isAllowedAddress: options.isAllowedAddress }),
  };
  const connections = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  const dispatchers: Dispatchers = createDispatchers(guard, connections);
  // Only scrapes that ask to skip TLS verification use these; built on first use.
  let lenient: Dispatchers | null = null;
  const direct = (verifyTls = true): Dispatcher => {
    if (verifyTls) return dispatchers.get(null);
    lenient ??= createDispatchers(guard, connections, false);
    return lenient.get(null);
  };
  const checkAddress = async (url: string | URL) => {
    if (!guard.allowPrivate) await assertPublicUrl(url, guard);
  };

  async function send(url: URL | string, init: HttpRequest): Promise<HttpResponse> {
    await checkAddress(url);
    const target = new URL(url);
    target.hash = '';
    return request(target, {
      dispatcher: init.dispatcher ?? dispatchers.get(null),
      method: init.method ?? 'GET',
      headers: init.headers,
      ...(init.body && { body: init.body }),
      signal: init.signal,
    });
  }

  async function readBody(response: HttpResponse, limit = maxBodyBytes): Promise<Buffer> {
    const declared = Number(headerValue(response.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > limit) {
      // Destroying emits an abort error nobody else listens for.
      response.body.on('error', () => undefined).destroy();
      throw bodyTooLarge(limit);
    }
    const raw = await readLimited(response.body, limit);
    const encoding = headerValue(response.headers, 'content-encoding');
    return encoding ? decompress(raw, encoding, limit) : raw;
  }

  const baseHeaders = navigationHeaders(DEFAULT_USER_AGENT);
  async function get(start: string, { signal, languages = [], maxBytes }: DocumentRequest) {
    const headers =
      languages.length > 0
        ? { ...baseHeaders, 'accept-language': acceptLanguage(languages) }
        : baseHeaders;
    let url = new URL(start);
    for (let hops = 0; ; hops += 1) {
      const response = await send(url, { headers, signal }).catch((error: unknown) => {
        throw toAppError(error, url.hostname);
      });
      const location = headerValue(response.headers, 'location');
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        if (hops >= MAX_DOCUMENT_REDIRECTS) {
          throw appError(
            'FETCH_FAILED',
            `too many redirects (more than ${MAX_DOCUMENT_REDIRECTS})`,
          );
        }
        url = documentHop(url, location);
        continue;
      }
      const body = await readBody(response, maxBytes).catch((error: unknown) => {
        throw toAppError(error, url.hostname);
      });
      url.hash = '';
      return {
        url: url.href,
        status: response.statusCode,
        contentType: headerValue(response.headers, 'content-type') ?? null,
        body,
      };
    }
  }

  return {
    guard,
    maxBodyBytes,
    direct,
    checkAddress,
    send,
    readBody,
    get,
    close: async () => {
      await Promise.all([dispatchers.close(), lenient?.close()]);
    },
  };
}

function documentHop(from: URL, location: string): URL {
  const next = URL.parse(location, from);
  if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
    throw appError('FETCH_FAILED', `invalid redirect location ${location.slice(0, 200)}`);
  }
  return next;
}
