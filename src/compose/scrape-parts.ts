/**
 * Builds the scrape side of the service from config: proxy pools, the SSRF guard's resolver,
 * the planner, admission, and the pipeline's parts (the fetch and browser engines with the
 * blockers wired in, the output stage).
 */
import { execFileSync } from 'node:child_process';
import { type Config, DEFAULTS } from '../config.js';
import { createPostgresAccountSlots } from '../scrape/admission/account-slots-pg.js';
import {
  type Admission,
  createAdmission,
  createMemoryAccountSlots,
} from '../scrape/admission/admission.js';
import {
  type ConsentRejectorAssets,
  installConsentRejector,
  loadConsentRejectorAssets,
} from '../scrape/blockers/consent-rejector.js';
import {
  COOKIE_NOTICES,
  collectDomTokensInPage,
  cosmeticCss,
  type FilterEngines,
  loadFilterEngines,
  matchesNetworkBlock,
} from '../scrape/blockers/filter-engines.js';
import { ContentMemory } from '../scrape/engines/block-signatures.js';
import { type BrowserBlockersHook, createBrowserEngine } from '../scrape/engines/browser/index.js';
import { createFetchEngine } from '../scrape/engines/fetch-engine.js';
import { FALLBACK_CHROME_VERSION } from '../scrape/engines/identity/chrome-identity.js';
import type { HttpClient } from '../scrape/net/http-client.js';
import { createProxyHealth, type ProxyHealth } from '../scrape/net/proxy-health.js';
import { SessionStore } from '../scrape/net/sessions.js';
import { createOutputStage } from '../scrape/output/index.js';
import type { ScrapeHistory } from '../scrape/output/page-changes.js';
import type { PipelineParts } from '../scrape/pipeline.js';
import { createPlanner, type Planner } from '../scrape/plan.js';
import type { Store } from '../store/db.js';
import { pageModelOf } from './page-model.js';
import { loadProxyPools } from './proxy-pools.js';

export interface ScrapeParts {
  pipeline: PipelineParts;
  planner: Planner;
  admission: Admission;
  /** Each upstream proxy's counts and state (/metrics). */
  proxyHealth: ProxyHealth;
  close(): Promise<void>;
}

/**
 * The version of the Chromium that renders, so that plain fetches present the same Chrome
 * (`chromium --version` prints `Chromium 156.0.8078.108`).
 */
function chromiumVersion(path: string): string {
  try {
    const out = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    return /(\d+\.\d+\.\d+\.\d+)/.exec(out)?.[1] ?? FALLBACK_CHROME_VERSION;
  } catch {
    return FALLBACK_CHROME_VERSION;
  }
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
  /** The service's one HTTP client (its address guard: the planner's and the browser's). */
  http: HttpClient,
  /** The request log and its kept results (change_tracking's previous scrape of a URL). */
  history?: Pick<ScrapeHistory, 'keptResults'>,
): Promise<ScrapeParts> {
  const proxyHealth = createProxyHealth();
  const sessions = new SessionStore();
  const pools = loadProxyPools(config, proxyHealth);
  const { guard } = http;
  const filters: FilterEngines | null = await loadFilters(config, warn);
  const fetch = createFetchEngine({
    http,
    chromeVersion: chromiumVersion(config.chromiumPath ?? DEFAULTS.chromiumPath),
    health: proxyHealth,
    sessions,
  });
  const hook = filters ? browserBlockersHook(filters, loadConsentRejectorAssets()) : null;
  const browser = createBrowserEngine({
    ...(config.chromiumPath ? { executablePath: config.chromiumPath } : {}),
    allowPrivateNetworks: config.allowPrivateNetworks,
    maxConcurrentPages: config.browserPages,
    maxBodyBytes: config.maxBodyBytes,
    settleMaxMs: config.renderSettleMaxMs,
    // The browser decides allowPrivate itself (its own setting above): only how to check.
    guard: { lookup: guard.lookup, isAllowedAddress: guard.isAllowedAddress },
    ...(hook ? { blockers: hook } : {}),
    health: proxyHealth,
    sessions,
  });
  const slots =
    store.dialect === 'postgres'
      ? createPostgresAccountSlots(store.db, nodeId)
      : createMemoryAccountSlots();
  // Markdown and render=false blocking off the event loop; workers start on first use and,
  // when the filters loaded here, load them too while booting (not charged to a page's cap).
  const model = config.model ? pageModelOf(config.model) : null;
  const output = createOutputStage({
    model,
    ...(history ? { history: { db: store.db, keptResults: history.keptResults } } : {}),
    size: config.markdownWorkers,
    maxMs: config.markdownMaxMs,
    documents: { maxPages: config.pdfMaxPages, maxBytes: config.documentMaxBytes },
    ...(filters ? { filtersDir: config.filtersDir } : {}),
  });
  return {
    pipeline: {
      fetch,
      browser,
      filters,
      output,
      health: proxyHealth,
      contentMemory: new ContentMemory(),
    },
    planner: createPlanner(pools, guard, config.pricing, sessions, model),
    admission: createAdmission(slots, config.nodeConcurrency),
    proxyHealth,
    async close() {
      await Promise.allSettled([fetch.close(), browser.close(), output.close(), sessions.close()]);
    },
  };
}

/** The blockers as the browser engine asks them, over the loaded engines and autoconsent. */
export function browserBlockersHook(
  filters: FilterEngines,
  consentAssets: ConsentRejectorAssets,
): BrowserBlockersHook {
  return {
    matchesNetworkBlock: (request, which) => matchesNetworkBlock(filters, request, which),
    cosmeticCss: (pageUrl, which, dom) => cosmeticCss(filters, pageUrl, which, dom),
    bannerCss: (pageUrl, dom) => cosmeticCss(filters, pageUrl, COOKIE_NOTICES, dom),
    collectDomTokensInPage,
    installConsentRejector: (page, scriptName) =>
      installConsentRejector(page, consentAssets, scriptName),
  };
}
