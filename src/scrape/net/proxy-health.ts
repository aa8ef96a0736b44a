/**
 * How each upstream proxy is doing. A proxy whose connections fail `failuresToBench` times
 * in a row is benched for `benchMs`: the pools leave it out of the rotation, and once the
 * cooldown has passed it is back on its own (its next failure benches it again at once,
 * its next success clears the count). Counts of requests, failures and blocks feed
 * /metrics and `pagegrab proxies`, by a label that never holds the proxy's credentials.
 */
import type { ProxyEndpoint } from '../types.js';

export type ProxyOutcome = 'ok' | 'failed' | 'blocked';
export type ProxyState = 'active' | 'benched';

export interface ProxyStats {
  label: string;
  type: ProxyEndpoint['type'];
  country: string | null;
  state: ProxyState;
  /** Epoch ms the bench ends; null when active. */
  benchedUntil: number | null;
  requests: number;
  failures: number;
  blocks: number;
}

export interface ProxyHealthOptions {
  /** Connection failures in a row that bench a proxy. Default 3. */
  failuresToBench?: number;
  /** How long a benched proxy sits out. Default 60000 ms. */
  benchMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface ProxyHealth {
  /** False while the proxy sits out its bench. */
  usable(proxy: ProxyEndpoint): boolean;
  record(proxy: ProxyEndpoint, outcome: ProxyOutcome): void;
  /** Every proxy that has been registered or used, in registration order. */
  stats(): ProxyStats[];
  /** Makes a proxy known (listed with zero counts) before its first request. */
  register(proxy: ProxyEndpoint): void;
}

/**
 * A proxy's name without credentials: `type/country/host:port` (`any` without a country).
 * Two entries for one gateway with different credentials get the same label unless their
 * type or country differ; the pools add `#2`, `#3` to keep labels apart.
 */
export function proxyLabel(proxy: Pick<ProxyEndpoint, 'url' | 'type' | 'country'>): string {
  const { host } = new URL(proxy.url);
  return `${proxy.type}/${proxy.country ?? 'any'}/${host}`;
}

interface Entry {
  proxy: ProxyEndpoint;
  label: string;
  inARow: number;
  benchedUntil: number;
  requests: number;
  failures: number;
  blocks: number;
}

export function createProxyHealth(options: ProxyHealthOptions = {}): ProxyHealth {
  const failuresToBench = options.failuresToBench ?? 3;
  const benchMs = options.benchMs ?? 60_000;
  const now = options.now ?? Date.now;
  // Keyed by the full URL: the label may repeat, the URL (credentials included) may not.
  const entries = new Map<string, Entry>();

  const entryOf = (proxy: ProxyEndpoint): Entry => {
    let entry = entries.get(proxy.url);
    if (!entry) {
      entry = {
        proxy,
        label: proxy.label ?? proxyLabel(proxy),
        inARow: 0,
        benchedUntil: 0,
        requests: 0,
        failures: 0,
        blocks: 0,
      };
      entries.set(proxy.url, entry);
    }
    return entry;
  };

  return {
    register: (proxy) => void entryOf(proxy),
    usable(proxy) {
      const entry = entries.get(proxy.url);
      return !entry || entry.benchedUntil <= now();
    },
    record(proxy, outcome) {
      const entry = entryOf(proxy);
      entry.requests += 1;
      if (outcome === 'failed') {
        entry.failures += 1;
        entry.inARow += 1;
        // Back from a bench, one failure is enough to send it back.
        const returning = entry.benchedUntil > 0;
        if (entry.inARow >= failuresToBench || returning) entry.benchedUntil = now() + benchMs;
        return;
      }
      if (outcome === 'blocked') entry.blocks += 1;
      // The proxy connected: whatever the target said, the proxy works.
      entry.inARow = 0;
      entry.benchedUntil = 0;
    },
    stats() {
      const at = now();
      return [...entries.values()].map((e) => ({
        label: e.label,
        type: e.proxy.type,
        country: e.proxy.country,
        state: e.benchedUntil > at ? 'benched' : 'active',
        benchedUntil: e.benchedUntil > at ? e.benchedUntil : null,
        requests: e.requests,
        failures: e.failures,
        blocks: e.blocks,
      }));
    },
  };
}
