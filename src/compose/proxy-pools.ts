/**
 * PROXIES_FILE's proxies as pools, built here for every part that needs them: the scrape's
 * planner and engines (with the node's health counts), and `pagegrab proxies`, which lists
 * them against a running service's counts.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import type { ProxyHealth } from '../scrape/net/proxy-health.js';
import { createProxyPools, type ProxyPools, parseProxiesFile } from '../scrape/net/proxy-pools.js';

/** No PROXIES_FILE: empty pools. A file that cannot be read says so, naming the setting. */
export function loadProxyPools(
  config: Pick<Config, 'proxiesFile'>,
  health?: ProxyHealth,
): ProxyPools {
  if (!config.proxiesFile) return createProxyPools([], health);
  let text: string;
  try {
    text = readFileSync(config.proxiesFile, 'utf8');
  } catch (error) {
    throw new Error(`PROXIES_FILE cannot be read: ${(error as Error).message}`);
  }
  return createProxyPools(parseProxiesFile(text), health);
}
