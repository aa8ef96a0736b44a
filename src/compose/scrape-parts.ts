/**
 * Builds the scrape side of the service from config: proxy pools, the SSRF guard's resolver,
 * the planner, admission, and the pipeline's parts (the fetch and browser engines with the
 * blockers wired in, the output stage).
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import { createPostgresAccountSlots } from '../scrape/admission/account-slots-pg.js';
import {
  type Admission,
  createAdmission,
  createMemoryAccountSlots,
} from '../scrape/admission/admission.js';
import {
  installConsentRejector,
  loadConsentRejectorAssets,
} from '../scrape/blockers/consent-rejector.js';
import {
  collectDomTokensInPage,
  cosmeticCss,
  type FilterEngines,
  loadFilterEngines,
  matchesNetworkBlock,
} from '../scrape/blockers/filter-engines.js';
import { type BrowserBlockersHook, createBrowserEngine } from '../scrape/engines/browser/index.js';
import { createFetchEngine } from '../scrape/engines/fetch-engine.js';
import { createCachingLookup } from '../scrape/net/dns-cache.js';
import { createProxyPools, parseProxiesFile } from '../scrape/net/proxy-pools.js';
import { createOutputStage } from '../scrape/output/index.js';
import type { PipelineParts } from '../scrape/pipeline.js';
import { createPlanner, type Planner } from '../scrape/plan.js';
import type { Store } from '../store/db.js';

export interface ScrapeParts {
  pipeline: PipelineParts;
  planner: Planner;
  admission: Admission;
  close(): Promise<void>;
}

function loadProxies(config: Config) {
  if (!config.proxiesFile) return createProxyPools([]);
  let text: string;
  try {
    text = readFileSync(config.proxiesFile, 'utf8');
  } catch (error) {
    throw new Error(`PROXIES_FILE cannot be read: ${(error as Error).message}`);
  }
  return createProxyPools(parseProxiesFile(text));
}

async function loadFilters(config: Config, warn: (msg: string) => void) {
  try {
    return await loadFilterEngines(config.filtersDir);
  } catch (error) {
    // Blocking then degrades to chat-vendor rules only; say so loudly rather than refuse to start.
    warn((error as Error).message);
    return null;
  }
}

export async function buildScrapeParts(
  config: Config,
  store: Store,
  nodeId: string,
  warn: (msg: string) => void,
): Promise<ScrapeParts> {
  const pools = loadProxies(config);
  const lookup = createCachingLookup();
  const guard = { allowPrivate: config.allowPrivateNetworks, lookup };
  const filters: FilterEngines | null = await loadFilters(config, warn);
  const fetch = createFetchEngine({
    allowPrivateNetworks: config.allowPrivateNetworks,
    maxBodyBytes: config.maxBodyBytes,
    lookup,
  });
  const consentAssets = loadConsentRejectorAssets();
  const hook: BrowserBlockersHook | null = filters
    ? {
        matchesNetworkBlock: (request, which) => matchesNetworkBlock(filters, request, which),
        cosmeticCss: (pageUrl, which, dom) => cosmeticCss(filters, pageUrl, which, dom),
        collectDomTokensInPage,
        installConsentRejector: (page) => installConsentRejector(page, consentAssets),
      }
    : null;
  const browser = createBrowserEngine({
    ...(config.chromiumPath ? { executablePath: config.chromiumPath } : {}),
    allowPrivateNetworks: config.allowPrivateNetworks,
    maxConcurrentPages: config.browserPages,
    guard: { lookup },
    ...(hook ? { blockers: hook } : {}),
  });
  const slots =
    store.dialect === 'postgres'
      ? createPostgresAccountSlots(store.db, nodeId)
      : createMemoryAccountSlots();
  // Markdown and render=false blocking off the event loop; workers start on first use and,
  // when the filters loaded here, load them too while booting (not charged to a page's cap).
  const output = createOutputStage({
    size: config.markdownWorkers,
    maxMs: config.markdownMaxMs,
    ...(filters ? { filtersDir: config.filtersDir } : {}),
  });
  return {
    pipeline: { fetch, browser, filters, output },
    planner: createPlanner(pools, guard, config.pricing),
    admission: createAdmission(slots, config.nodeConcurrency),
    async close() {
      await Promise.allSettled([fetch.close(), browser.close(), output.close()]);
    },
  };
}
