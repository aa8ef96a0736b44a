/**
 * The planner: what a scrape will do, decided once and before any credit moves. The plan is
 * complete (engine, output, blockers, proxies, price, isolation key) and nothing changes it
 * afterwards; the proxies are picked here, once, so the rotation turns once per scrape.
 */
import { priceOf } from '../billing/pricing.js';
import type { Pricing } from '../config.js';
import type { ScheduledRun } from '../store/run-records.js';
import type { ProxyPools } from './net/proxy-pools.js';
import type { SessionStore } from './net/sessions.js';
import { assertPublicUrl, type GuardOptions } from './net/ssrf-guard.js';
import { modelCallPrice, type PageModel } from './output/model-output.js';
import type {
  AskedRequest,
  BlockSelection,
  EngineName,
  OutputType,
  RequestSource,
  ScrapeOptions,
  ScrapePlan,
} from './types.js';

/** What the planner is told about a validated request. */
export interface PlanRequest {
  requestId: string;
  accountId: string;
  concurrencyLimit: number;
  workflowId: string | null;
  options: ScrapeOptions;
  createdAt: number;
  /** A scheduled run's due time and catch-up mark, carried to its record. */
  schedule?: ScheduledRun;
  source?: RequestSource;
  asked?: AskedRequest;
}

export interface Planner {
  /**
   * What `prepare` asks, once: the plan of a validated request with its target and webhook
   * addresses checked, in contract 1.2's order (400 `Proxy unavailable: ...`, then 400
   * `URL is not allowed: ...`).
   */
  planAllowed(request: PlanRequest): Promise<ScrapePlan>;
  /** The plan of a validated request; 400 `Proxy unavailable: ...` when no proxy matches. */
  plan(request: PlanRequest): ScrapePlan;
  /** 400 `URL is not allowed: ...` for a non-public target or webhook. */
  assertAllowed(url: string): Promise<void>;
}

export function createPlanner(
  pools: ProxyPools,
  guard: GuardOptions,
  pricing: Pricing,
  /** Sticky sessions; without them `sessionId` is ignored. */
  sessions?: SessionStore,
  /** The operator's model (json and summary outputs); absent: those are a 400. */
  model?: Pick<PageModel, 'callPrice' | 'checkSchema'> | null,
): Planner {
  const planner: Planner = {
    async planAllowed(request) {
      const planned = planner.plan(request);
      await assertPublicUrl(planned.options.url, guard);
      if (planned.options.webhookUrl) await assertPublicUrl(planned.options.webhookUrl, guard);
      return planned;
    },
    plan(request) {
      const { options } = request;
      const output = outputTypeOf(options);
      const modelPrice = modelCallPrice(output, options, model ?? null);
      const { proxyType, proxyCountry, sessionId } = options;
      // A session keeps the proxy its first scrape was given (one: it never rotates).
      const session =
        sessionId && sessions
          ? sessions.open(request.accountId, sessionId, proxyType, proxyCountry, () =>
              pools.select(proxyType, proxyCountry),
            )
          : null;
      const proxies = session ? session.proxies : pools.select(proxyType, proxyCountry);
      const escalation =
        !session &&
        options.proxyEscalation &&
        options.proxyType !== 'residential' &&
        pools.has('residential', options.proxyCountry)
          ? Object.freeze(pools.select('residential', options.proxyCountry))
          : null;
      const prices = pricesOf(pricing, options, escalation !== null, modelPrice);
      return Object.freeze({
        ...request,
        options: Object.freeze({ ...options }),
        engine: engineOf(options),
        output,
        block: blockSelectionOf(options),
        proxies: Object.freeze(proxies),
        escalation,
        ...(prices ? { prices } : {}),
        // The first way only: a choice that costs more reserves the difference when the
        // pipeline takes it (ScrapeRun.escalate), so a small balance still pays for a fetch.
        price: priceOf(pricing, options.render, options.proxyType) + modelPrice,
        // Browser contexts are never shared between accounts.
        isolationKey: request.accountId,
      });
    },
    async assertAllowed(url) {
      await assertPublicUrl(url, guard);
    },
  };
  return planner;
}

/** `<engine>:<proxy type>`: the key of a plan's price table. */
export const priceKey = (engine: EngineName, proxyType: string) => `${engine}:${proxyType}`;

/** The price of each way a plan with a choice may load its page; undefined: no choice. */
function pricesOf(
  pricing: Pricing,
  options: ScrapeOptions,
  escalates: boolean,
  /** A json or summary output's model call, on top of every way. */
  modelPrice: number,
): Readonly<Record<string, number>> | undefined {
  const maybeRendered = !options.render && options.renderWhenNeeded;
  if (!maybeRendered && !escalates) return undefined;
  const engines: EngineName[] = options.render
    ? ['browser']
    : maybeRendered
      ? ['fetch', 'browser']
      : ['fetch'];
  const proxyTypes = escalates ? [options.proxyType, 'residential' as const] : [options.proxyType];
  const prices: Record<string, number> = {};
  for (const engine of engines) {
    for (const proxyType of proxyTypes) {
      prices[priceKey(engine, proxyType)] =
        priceOf(pricing, engine === 'browser', proxyType) + modelPrice;
    }
  }
  return Object.freeze(prices);
}

/**
 * The one output of a request (contract 10). parseScraperRequest has already refused
 * markdown with a screenshot; screenshot with screenshot_full_page is a full-page screenshot.
 */
export function outputTypeOf(
  options: Pick<
    ScrapeOptions,
    | 'markdown'
    | 'screenshot'
    | 'screenshotFullPage'
    | 'document'
    | 'extractRules'
    | 'structuredData'
    | 'jsonSchema'
    | 'jsonPrompt'
    | 'summary'
    | 'changeTracking'
  >,
): OutputType {
  if (options.document) return 'document';
  // plans stored before these options existed lack them: undefined is "not asked"
  if (options.extractRules) return 'extract';
  if (options.structuredData) return 'structured_data';
  if (options.changeTracking) return 'change_tracking';
  if (options.jsonSchema || options.jsonPrompt) return 'json';
  if (options.summary) return 'summary';
  if (options.markdown) return 'markdown';
  if (options.screenshot || options.screenshotFullPage) return 'screenshot';
  return 'html';
}

/** render=true needs a browser; everything else is a plain fetch (contract 12 blocks statically). */
export function engineOf(options: Pick<ScrapeOptions, 'render'>): EngineName {
  return options.render ? 'browser' : 'fetch';
}

function blockSelectionOf(options: ScrapeOptions): BlockSelection | null {
  const { blockAds, blockCookieBanners, blockChatWidgets } = options;
  if (!blockAds && !blockCookieBanners && !blockChatWidgets) return null;
  return Object.freeze({
    ads: blockAds,
    cookieBanners: blockCookieBanners,
    chatWidgets: blockChatWidgets,
  });
}
