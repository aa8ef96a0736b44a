/**
 * runScrape(plan): engine → blockers → output (Markdown in a worker pool). Nothing here knows about HTTP, billing or
 * webhooks, so the route, workflow runs and webhook jobs share it.
 */

import type { FilterEngines } from './blockers/filter-engines.js';
import { stripBlocked } from './blockers/static-blocker.js';
import type { BrowserEngine } from './engines/browser/index.js';
import type { FetchEngine } from './engines/fetch-engine.js';
import type { OutputStage } from './output/index.js';
import type { EngineName, PageSnapshot, ScrapePlan, ScrapeResult } from './types.js';

export interface Engines {
  fetch: FetchEngine;
  browser: BrowserEngine;
  /** Ad, cookie-notice and chat rules; null when the filter build is missing. */
  filters: FilterEngines | null;
  /** Bytes for the caller; Markdown off the event loop. */
  output: OutputStage;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

async function fetchWithStaticBlockers(plan: ScrapePlan, engines: Engines): Promise<PageSnapshot> {
  const page = await engines.fetch.fetch(plan);
  const { blockAds, blockCookieBanners, blockChatWidgets } = plan.options;
  const wanted = blockAds || blockCookieBanners || blockChatWidgets;
  if (!wanted || !engines.filters || !HTML_TYPES.test(page.contentType ?? 'text/html')) {
    return page;
  }
  const html = stripBlocked(
    page.html,
    page.finalUrl,
    { ads: blockAds, cookieBanners: blockCookieBanners, chatWidgets: blockChatWidgets },
    engines.filters,
  );
  return { ...page, html };
}

/** In-browser blocking is wired into the browser engine at construction (see main.ts). */
const runners: Record<EngineName, (plan: ScrapePlan, engines: Engines) => Promise<PageSnapshot>> = {
  fetch: fetchWithStaticBlockers,
  browser: (plan, engines) => engines.browser.render(plan),
};

export async function runScrape(plan: ScrapePlan, engines: Engines): Promise<ScrapeResult> {
  const snapshot = await runners[plan.engine](plan, engines);
  return engines.output.produce(plan, snapshot);
}
