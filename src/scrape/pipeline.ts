/**
 * The stages of a scrape, in order, for a run that has been admitted:
 *
 *   1. load    the page: a plain fetch (undici) or a render (warm Chromium, the caller's
 *              instructions; the browser applies the blockers in the page as it loads)
 *   2. block   a fetched HTML page gets the same blockers statically: the selection is
 *              handed to the output stage, which strips it off the event loop
 *   3. output  html | markdown | screenshot: the bytes the caller or the webhook receives
 *
 * Nothing here knows about HTTP, credits or webhooks; the use case (scrape-use-case.ts)
 * admits the run before and settles it after.
 */
import type { FilterEngines } from './blockers/filter-engines.js';
import type { BrowserEngine } from './engines/browser/index.js';
import type { FetchEngine, FetchedPage } from './engines/fetch-engine.js';
import { looksBlocked, needsJavascript } from './engines/needs-javascript.js';
import type { OutputStage } from './output/index.js';
import type {
  BlockSelection,
  EngineName,
  PageSnapshot,
  ScrapeResult,
  ScrapeRun,
  UsedResources,
} from './types.js';

export interface PipelineParts {
  fetch: FetchEngine;
  /** Built with the blockers wired in (see compose/scrape-parts.ts). */
  browser: BrowserEngine;
  /** Ad, cookie-notice and chat rules; null when the filter build is missing. */
  filters: FilterEngines | null;
  output: OutputStage;
}

/** A loaded page; a fetch also knows the target's Content-Type. */
type Loaded = PageSnapshot & Partial<Pick<FetchedPage, 'contentType'>>;

const load: Record<EngineName, (run: ScrapeRun, parts: PipelineParts) => Promise<Loaded>> = {
  fetch: (run, parts) => parts.fetch.fetch(run),
  browser: (run, parts) => parts.browser.render(run),
};

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

/**
 * What the output stage is to strip from the page: only a fetched HTML page (a render was
 * blocked in the browser). Without filter engines (build missing) the page goes unblocked,
 * as the output workers would have no engines either.
 */
function staticBlocks(
  run: ScrapeRun,
  page: Loaded,
  filters: FilterEngines | null,
): BlockSelection | undefined {
  if (run.engine !== 'fetch' || !run.block || !filters) return undefined;
  if (!HTML_TYPES.test(page.contentType ?? 'text/html')) return undefined;
  return run.block;
}

/**
 * Load, with the plan's second chances: a fetched page that plainly needs JavaScript is
 * rendered (renderWhenNeeded), and an answer that looks blocked is loaded again through the
 * plan's residential proxies (escalation). The result says which engine and proxy it used.
 */
async function loadPage(run: ScrapeRun, parts: PipelineParts) {
  let used: UsedResources = { engine: run.engine, proxyType: run.options.proxyType };
  let page = await load[used.engine](run, parts);
  if (used.engine === 'fetch' && run.options.renderWhenNeeded && needsJavascript(page)) {
    used = { ...used, engine: 'browser' };
    page = await load.browser(run, parts);
  }
  if (run.escalation && looksBlocked(page)) {
    used = { ...used, proxyType: 'residential' };
    page = await load[used.engine]({ ...run, proxies: run.escalation }, parts);
  }
  return { page, used };
}

export async function runPipeline(run: ScrapeRun, parts: PipelineParts): Promise<ScrapeResult> {
  const { page, used } = await loadPage(run, parts);
  const block = staticBlocks({ ...run, engine: used.engine }, page, parts.filters);
  const result = await parts.output.produce(run, page, block);
  return run.prices ? { ...result, used } : result;
}
