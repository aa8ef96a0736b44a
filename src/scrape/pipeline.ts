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
import { appError } from '../errors.js';
import type { FilterEngines } from './blockers/filter-engines.js';
import {
  type BlockSignature,
  blockSignature,
  type ContentMemory,
} from './engines/block-signatures.js';
import type { BrowserEngine } from './engines/browser/index.js';
import type { FetchEngine, FetchedPage } from './engines/fetch-engine.js';
import { needsJavascript } from './engines/needs-javascript.js';
import type { ProxyHealth } from './net/proxy-health.js';
import type { OutputStage } from './output/index.js';
import type {
  BlockSelection,
  EngineName,
  PageSnapshot,
  ProxyEndpoint,
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
  /** Counts each proxy's answers (ok, blocked); the engines count its failures. */
  health?: ProxyHealth;
  /** URLs that answered with text (the `empty` block signature); none: not detected. */
  contentMemory?: ContentMemory;
}

/** A blocked answer is retried only while this much of the budget is left. */
export const MIN_RETRY_BUDGET_MS = 3_000;

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

/** What the blocked attempts of a scrape saw, for the error when all of them were. */
interface Blocks {
  attempts: number;
  last: BlockSignature | null;
}

/**
 * One load through `proxies`, retried on the pool's next proxy while the answer is a block
 * page (block-signatures.ts), at most once per proxy and only while MIN_RETRY_BUDGET_MS of
 * the budget is left; a session's scrape keeps its proxy and is not retried. Null: every
 * attempt was blocked.
 */
async function loadUnblocked(
  run: ScrapeRun,
  engine: EngineName,
  proxies: readonly ProxyEndpoint[],
  parts: PipelineParts,
  blocks: Blocks,
): Promise<Loaded | null> {
  const memory = parts.contentMemory
    ? { memory: parts.contentMemory, url: run.options.url }
    : undefined;
  let start = 0;
  do {
    if (blocks.attempts > 0 && run.deadline - Date.now() < MIN_RETRY_BUDGET_MS) return null;
    const page = await load[engine]({ ...run, proxies: proxies.slice(start) }, parts);
    const signature = blockSignature(page, memory);
    if (page.via) parts.health?.record(page.via, signature ? 'blocked' : 'ok');
    if (signature === null) return page;
    blocks.attempts += 1;
    blocks.last = signature;
    // The next proxy after the one that answered (the engine may have failed over).
    const served = page.via ? proxies.findIndex((p) => p.url === page.via?.url) : start;
    start = Math.max(start, served) + 1;
  } while (start < proxies.length && !run.options.sessionId);
  return null;
}

/**
 * Load, with the plan's second chances: a fetched page that is an application shell
 * (needs-javascript.ts) is rendered (renderWhenNeeded), and when the pool's proxies were all
 * blocked the plan's residential proxies are tried (escalation). Each dearer way is paid for
 * before it is taken (`run.escalate`: 402 when the account cannot). The result says which
 * engine and proxy type it used; when every attempt was blocked the scrape fails with
 * TARGET_BLOCKED, never answering the block page.
 */
async function loadPage(run: ScrapeRun, parts: PipelineParts) {
  const blocks: Blocks = { attempts: 0, last: null };
  let used: UsedResources = { engine: run.engine, proxyType: run.options.proxyType };
  let page = await loadUnblocked(run, used.engine, run.proxies, parts, blocks);
  if (page && used.engine === 'fetch' && run.options.renderWhenNeeded && needsJavascript(page)) {
    used = { ...used, engine: 'browser' };
    await run.escalate?.(used);
    page = await loadUnblocked(run, 'browser', run.proxies, parts, blocks);
  }
  if (!page && run.escalation) {
    used = { ...used, proxyType: 'residential' };
    await run.escalate?.(used);
    page = await loadUnblocked(run, used.engine, run.escalation, parts, blocks);
  }
  if (!page) throw appError('TARGET_BLOCKED', blocks.attempts, blocks.last ?? 'unknown');
  return { page, used };
}

export async function runPipeline(run: ScrapeRun, parts: PipelineParts): Promise<ScrapeResult> {
  const { page, used } = await loadPage(run, parts);
  const block = staticBlocks({ ...run, engine: used.engine }, page, parts.filters);
  const result = await parts.output.produce(run, page, block);
  return { ...result, used };
}
