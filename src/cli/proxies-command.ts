/**
 * `pagegrab proxies [--json]`: the upstream proxies of PROXIES_FILE, each with its label
 * (never its credentials), type, country and state. The state lives in the running
 * service (a proxy's bench is kept in memory): it is read from that service's /metrics at
 * HOST:PORT; when no service answers there the command fails, naming the address; a proxy
 * the service does not know (the file changed since it started) is `unknown`.
 */

import { parseArgs } from 'node:util';
import { loadProxyPools } from '../compose/proxy-pools.js';
import type { Config } from '../config.js';
import type { ProxyPools } from '../scrape/net/proxy-pools.js';
import { CliError, UsageError } from './cli-errors.js';

export interface ProxyRow {
  proxy: string;
  type: string;
  country: string | null;
  state: 'active' | 'benched' | 'unknown';
  requests: number | null;
  failures: number | null;
  blocks: number | null;
}

const METRIC =
  /^pagegrab_proxy_(requests_total|failures_total|blocks_total|benched)\{proxy="((?:[^"\\]|\\.)*)"\} ([0-9.e+-]+)$/;

/** The proxy series of a Prometheus text page, by label. */
export function proxySeries(text: string): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const line of text.split('\n')) {
    const match = METRIC.exec(line.trim());
    if (!match) continue;
    const label = (match[2] ?? '').replace(/\\(.)/g, '$1');
    const series = out.get(label) ?? {};
    series[match[1] ?? ''] = Number(match[3]);
    out.set(label, series);
  }
  return out;
}

/**
 * The running service's /metrics. A service that does not answer is an error (exit 1) naming
 * the address tried: every state would be a guess.
 */
async function readMetrics(config: Config): Promise<string> {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const address = `http://${host}:${config.port}`;
  let answer: Response;
  try {
    answer = await fetch(`${address}/metrics`, { signal: AbortSignal.timeout(3_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === 'TimeoutError'
        ? 'no answer in 3 s'
        : (cause?.code ?? cause?.message ?? 'no answer');
    throw new CliError(
      `the service is unreachable at ${address} (${why}): start it with \`pagegrab serve\`, or set HOST and PORT to where it listens`,
    );
  }
  if (!answer.ok) {
    throw new CliError(
      `${address}/metrics answered ${answer.status}: is pagegrab listening there?`,
    );
  }
  return await answer.text();
}

/** `pools`: PROXIES_FILE's, as the composition root builds them (compose/proxy-pools.ts). */
export async function listProxies(
  config: Config,
  pools: ProxyPools = loadProxyPools(config),
): Promise<ProxyRow[]> {
  if (!config.proxiesFile) return [];
  const series = proxySeries(await readMetrics(config));
  return pools.all.map((proxy) => {
    const label = proxy.label ?? '';
    const seen = series.get(label);
    return {
      proxy: label,
      type: proxy.type,
      country: proxy.country,
      state: !seen ? 'unknown' : seen.benched === 1 ? 'benched' : 'active',
      requests: seen?.requests_total ?? null,
      failures: seen?.failures_total ?? null,
      blocks: seen?.blocks_total ?? null,
    };
  });
}

export async function runProxiesCommand(
  args: string[],
  config: Config,
  print: (line: string) => void,
): Promise<void> {
  let json = false;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean' } } }).values.json ?? false;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nUsage: pagegrab proxies [--json]`);
  }
  const rows = await listProxies(config);
  if (json) return void print(JSON.stringify(rows));
  if (rows.length === 0) return void print('no proxies configured (PROXIES_FILE)');
  const count = (n: number | null) => (n === null ? '-' : String(n));
  const table = [
    ['PROXY', 'TYPE', 'COUNTRY', 'STATE', 'REQUESTS', 'FAILURES', 'BLOCKS'],
    ...rows.map((r) => [
      r.proxy,
      r.type,
      r.country ?? '-',
      r.state,
      count(r.requests),
      count(r.failures),
      count(r.blocks),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table)
    print(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}
