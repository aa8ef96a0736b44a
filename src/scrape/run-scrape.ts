/**
 * runScrape(plan): engine → blockers → output. Nothing here knows about HTTP, billing or
 * webhooks, so the route, workflow runs and webhook jobs share it. The render=false static
 * blocker and Markdown both run in the output stage's worker pool (one trip per page).
 */

import type { BlockSelection, FilterEngines } from './blockers/filter-engines.js';
import type { BrowserEngine } from './engines/browser/index.js';
import type { FetchEngine } from './engines/fetch-engine.js';
import type { OutputStage } from './output/index.js';
import type { EngineName, PageSnapshot, ScrapePlan, ScrapeResult } from './types.js';

export interface Engines {
  fetch: FetchEngine;
  browser: BrowserEngine;
  /** Ad, cookie-notice and chat rules; null when the filter build is missing. */
  filters: FilterEngines | null;
  /** Bytes for the caller; static blocking and Markdown off the event loop. */
  output: OutputStage;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

interface Fetched {
  snapshot: PageSnapshot;
  /** What the output stage strips (render=false); absent: nothing. */
  block?: BlockSelection;
}

/**
 * The plain fetch, and which static blocks the output stage is to strip from it. Without
 * filter engines (build missing) the page is returned unblocked, as the stage's workers
 * would have no engines either.
 */
async function fetchWithBlockSelection(plan: ScrapePlan, engines: Engines): Promise<Fetched> {
  const snapshot = await engines.fetch.fetch(plan);
  const { blockAds, blockCookieBanners, blockChatWidgets } = plan.options;
  const wanted = blockAds || blockCookieBanners || blockChatWidgets;
  if (!wanted || !engines.filters || !HTML_TYPES.test(snapshot.contentType ?? 'text/html')) {
    return { snapshot };
  }
  return {
    snapshot,
    block: { ads: blockAds, cookieBanners: blockCookieBanners, chatWidgets: blockChatWidgets },
  };
}

/** In-browser blocking is wired into the browser engine at construction (see main.ts). */
const runners: Record<EngineName, (plan: ScrapePlan, engines: Engines) => Promise<Fetched>> = {
  fetch: fetchWithBlockSelection,
  browser: async (plan, engines) => ({ snapshot: await engines.browser.render(plan) }),
};

export async function runScrape(plan: ScrapePlan, engines: Engines): Promise<ScrapeResult> {
  const { snapshot, block } = await runners[plan.engine](plan, engines);
  return engines.output.produce(plan, snapshot, block);
}
