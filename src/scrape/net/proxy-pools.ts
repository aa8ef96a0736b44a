/**
 * The operator's upstream proxies (PROXIES_FILE, contract 2.20 and 6) and the choice of one
 * per request. A proxy with a country serves requests for that country and requests naming
 * none; one without a country serves only requests naming none. Datacenter requests naming
 * no country go direct when no datacenter proxy is configured at all.
 */
import { appError } from '../../errors.js';
import { PROXY_TYPES, type ProxyEndpoint, type ProxyType } from '../types.js';
import { type ProxyHealth, proxyLabel } from './proxy-health.js';

/**
 * Proxies one scrape may try, in order: the rotation's pick, then the next ones of the pool
 * (the failover of a proxy that does not connect, and the retries of a blocked answer).
 */
export const MAX_PROXY_ATTEMPTS = 3;

const FIELDS = new Set(['url', 'type', 'country']);
const PROXY_PROTOCOLS = new Set(['http:', 'https:']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseEntry(raw: unknown, index: number): ProxyEndpoint {
  const fail = (reason: string): never => {
    throw new Error(`PROXIES_FILE entry ${index}: ${reason}`);
  };
  if (!isRecord(raw)) return fail('must be an object like {"url": "http://host:port"}');
  for (const key of Object.keys(raw)) {
    if (!FIELDS.has(key)) fail(`unknown field "${key}" (allowed: url, type, country)`);
  }
  const { url, type = 'datacenter', country = null } = raw;
  if (typeof url !== 'string') return fail('url is required and must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(`url is not a valid URL: ${url}`);
  }
  if (!PROXY_PROTOCOLS.has(parsed.protocol))
    fail(`url must be http:// or https://, got ${parsed.protocol}`);
  if (typeof type !== 'string' || !(PROXY_TYPES as readonly string[]).includes(type)) {
    fail(`type must be one of ${PROXY_TYPES.join(', ')}`);
  }
  if (country !== null && (typeof country !== 'string' || !/^[a-z]{2}$/i.test(country))) {
    fail('country must be an ISO 3166-1 alpha-2 code such as "DE", or null');
  }
  return {
    url,
    type: type as ProxyType,
    country: typeof country === 'string' ? country.toUpperCase() : null,
  };
}

/** Parses and validates the PROXIES_FILE text; throws an Error naming the bad entry. */
export function parseProxiesFile(json: string): ProxyEndpoint[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new Error(`PROXIES_FILE is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) throw new Error('PROXIES_FILE must hold a JSON array of proxies');
  return data.map(parseEntry);
}

export interface ProxyPools {
  /**
   * The proxies to try for one request: the rotation's pick, then the pool's next ones, at
   * most MAX_PROXY_ATTEMPTS, benched proxies left out (all of them benched: the pool as it
   * is, rather than no proxy); empty for a direct connection. Throws PROXY_UNAVAILABLE when
   * no configured proxy matches.
   */
  select(type: ProxyType, country: string | null): ProxyEndpoint[];
  /** Whether `select` would succeed (for the planner, before charging). */
  has(type: ProxyType, country: string | null): boolean;
  /** Every configured proxy, in file order. */
  readonly all: readonly ProxyEndpoint[];
}

export function createProxyPools(
  entries: readonly ProxyEndpoint[],
  health?: ProxyHealth,
): ProxyPools {
  const seen = new Map<string, number>();
  const all = entries.map((e) => {
    const country = e.country?.toUpperCase() ?? null;
    const base = proxyLabel({ ...e, country });
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const proxy = { ...e, country, label: n === 1 ? base : `${base}#${n}` };
    health?.register(proxy);
    return proxy;
  });
  const turns = new Map<string, number>();

  const candidates = (type: ProxyType, country: string | null): ProxyEndpoint[] => {
    const wanted = country?.toUpperCase() ?? null;
    return all.filter((p) => p.type === type && (wanted === null || p.country === wanted));
  };
  const goesDirect = (type: ProxyType, country: string | null): boolean =>
    type === 'datacenter' && country === null && !all.some((p) => p.type === 'datacenter');

  return {
    all,
    has(type, country) {
      return goesDirect(type, country) || candidates(type, country).length > 0;
    },
    select(type, country) {
      if (goesDirect(type, country)) return [];
      const pool = candidates(type, country);
      if (pool.length === 0) {
        throw country
          ? appError('PROXY_UNAVAILABLE', type, country)
          : appError('PROXY_UNAVAILABLE', type);
      }
      const key = `${type}:${country?.toUpperCase() ?? ''}`;
      const turn = turns.get(key) ?? 0;
      turns.set(key, turn + 1);
      const rotated = pool.map((_, i) => pool[(turn + i) % pool.length]!);
      const usable = health ? rotated.filter((p) => health.usable(p)) : rotated;
      return (usable.length > 0 ? usable : rotated).slice(0, MAX_PROXY_ATTEMPTS);
    },
  };
}
