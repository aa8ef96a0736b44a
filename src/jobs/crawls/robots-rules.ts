/**
 * robots.txt for crawls (RFC 9309, parsed by `robots-parser`). Crawls obey the rules for the
 * user agent `pagegrab` (a group naming it, else `*`), and its Crawl-delay. A host's file is
 * read once an hour at most and kept in `crawl_hosts`, so every node and crawl shares it; a
 * node keeps the parsed rules of recent hosts in memory.
 *
 * A robots.txt answered with a status >= 400, or not at all, has no rules (everything is
 * allowed), as most crawlers do; a redirect is followed (through the SSRF guard, as every
 * hop is).
 */
import type { Kysely } from 'kysely';
import robotsParserModule from 'robots-parser';
import type { DocumentFetcher } from '../../scrape/net/http-client.js';
import { saveRobots, storedRobots } from '../../store/crawls.js';
import type { Database } from '../../store/schema.js';

const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;
type Robots = ReturnType<typeof robotsParser>;

/** The product token robots.txt groups are matched against. */
export const CRAWLER_USER_AGENT = 'pagegrab';
/** How long a host's robots.txt is trusted. */
export const ROBOTS_TTL_MS = 3600_000;
/** Longest robots.txt read (Google reads 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;
/** Longest wait for a robots.txt. */
const ROBOTS_TIMEOUT_MS = 10_000;
/** Hosts whose parsed rules a node keeps. */
const MEMORY_HOSTS = 256;
/** A Crawl-delay above this is read as this (a hostile file should not stall a crawl). */
const MAX_CRAWL_DELAY_MS = 30_000;

export interface RobotsRules {
  /** Whether the crawl may fetch the URL (`signal`: the caller stops waiting, e.g. shutdown). */
  allowed(url: string, signal?: AbortSignal): Promise<boolean>;
  /** The host's Crawl-delay for pagegrab, in ms (0: none or not read yet). */
  crawlDelayMs(host: string): number;
  /** The sitemaps the URL's robots.txt declares (its `Sitemap:` lines). */
  sitemaps(url: string): Promise<string[]>;
}

export function createRobotsRules(deps: {
  db: Kysely<Database>;
  fetcher: Pick<DocumentFetcher, 'get'>;
}): RobotsRules {
  const memory = new Map<string, { robots: Robots; at: number }>();

  const remember = (host: string, entry: { robots: Robots; at: number }) => {
    memory.delete(host);
    memory.set(host, entry);
    if (memory.size > MEMORY_HOSTS) memory.delete(memory.keys().next().value as string);
  };

  const read = async (origin: string, signal?: AbortSignal): Promise<string> => {
    const timeout = AbortSignal.timeout(ROBOTS_TIMEOUT_MS);
    try {
      const document = await deps.fetcher.get(`${origin}/robots.txt`, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (document.status >= 400) return '';
      return document.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8');
    } catch {
      return '';
    }
  };

  const rulesOf = async (url: URL, signal?: AbortSignal): Promise<Robots> => {
    const host = url.host.toLowerCase();
    const now = Date.now();
    const known = memory.get(host);
    if (known && now - known.at < ROBOTS_TTL_MS) return known.robots;
    const robotsUrl = `${url.origin}/robots.txt`;
    const stored = await storedRobots(deps.db, host);
    if (stored && now - stored.at < ROBOTS_TTL_MS) {
      const entry = { robots: robotsParser(robotsUrl, stored.text), at: stored.at };
      remember(host, entry);
      return entry.robots;
    }
    const text = await read(url.origin, signal);
    // Stopped while reading: an empty answer is not the host's file, so nothing is kept.
    signal?.throwIfAborted();
    await saveRobots(deps.db, host, text, now);
    const entry = { robots: robotsParser(robotsUrl, text), at: now };
    remember(host, entry);
    return entry.robots;
  };

  return {
    async allowed(raw, signal) {
      const url = new URL(raw);
      const robots = await rulesOf(url, signal);
      return robots.isAllowed(url.href, CRAWLER_USER_AGENT) !== false;
    },
    async sitemaps(raw) {
      return (await rulesOf(new URL(raw))).getSitemaps();
    },
    crawlDelayMs(host) {
      const delay = memory.get(host)?.robots.getCrawlDelay(CRAWLER_USER_AGENT);
      return delay ? Math.min(Math.round(delay * 1000), MAX_CRAWL_DELAY_MS) : 0;
    },
  };
}
