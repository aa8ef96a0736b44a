/**
 * The scrape as a business transaction, shared by the HTTP route and webhook jobs:
 * prepare (workflow, parameters, proxy, address check, reserve credits) → run (admission,
 * engine, output) → finish (settle or refund, and the run record, in one transaction).
 * Checks run in contract 1.2's order: key (auth, before this), workflow, parameters, proxy,
 * credits, concurrency.
 */
import type { Account } from '../accounts/account-store.js';
import type { Metrics } from '../api/metrics.js';
import { refundCredits, reserveCredits, settleCredits } from '../billing/credit-ledger.js';
import { priceOf } from '../billing/pricing.js';
import type { Pricing } from '../config.js';
import { type AppError, appError, isAppError } from '../errors.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import { loadWorkflowForRun, type RunRecord, saveRunRecord } from '../store/run-records.js';
import type { Admission } from './admission/admission.js';
import {
  outputTypeOf,
  parseScraperRequest,
  savedConfigFromWorkflow,
  workflowIdOf,
} from './params/index.js';
import { type Planner, planScrape } from './plan.js';
import { type Engines, runScrape } from './run-scrape.js';
import type { ScrapeOptions, ScrapeResult } from './types.js';

/** Everything needed to run and settle a scrape later; JSON-serialisable for the job queue. */
export interface PreparedScrape {
  requestId: string;
  accountId: string;
  concurrencyLimit: number;
  workflowId: string | null;
  options: ScrapeOptions;
  price: number;
  createdAt: number;
}

export type Outcome = { ok: true; result: ScrapeResult } | { ok: false; error: AppError };

export interface Settlement {
  charged: number;
  balance: number;
}

export interface ScrapeServiceDeps {
  store: Store;
  pricing: Pricing;
  planner: Planner;
  engines: Engines;
  admission: Admission;
  metrics: Metrics;
}

/** The answer of a failure as the run record keeps it. */
function asAppError(error: unknown): AppError {
  return isAppError(error) ? error : appError('INTERNAL');
}

export class ScrapeService {
  constructor(private readonly deps: ScrapeServiceDeps) {}

  /**
   * Validates and reserves; throws the caller's 4xx. Nothing is charged if this throws.
   * `requestId` names the scrape everywhere (the route passes its X-Request-Id).
   */
  async prepare(
    account: Account,
    query: Record<string, unknown>,
    requestId: string = newId(),
  ): Promise<PreparedScrape> {
    const { store, planner, pricing } = this.deps;
    const workflowId = workflowIdOf(query);
    const saved = workflowId
      ? savedConfigFromWorkflow(await loadWorkflowForRun(store.db, account.id, workflowId))
      : null;
    const options = parseScraperRequest(query, saved);
    const prepared: PreparedScrape = {
      requestId,
      accountId: account.id,
      concurrencyLimit: account.concurrencyLimit,
      workflowId,
      options,
      price: priceOf(pricing, options.render, options.proxyType),
      createdAt: Date.now(),
    };
    try {
      planner.proxiesFor(options);
      await planner.assertAllowed(options.url);
      if (options.webhookUrl) await planner.assertAllowed(options.webhookUrl);
      // Not fsynced: lost with a power cut, a reservation was never seen by anyone (its
      // scrape answers only after the durable settle, which flushes it too).
      const balance = await store.transact(
        (trx) => reserveCredits(trx, account.id, prepared.price, prepared.requestId),
        { durable: false },
      );
      if (balance === null) throw appError('INSUFFICIENT_CREDITS');
    } catch (error) {
      await this.recordRefusal(prepared, asAppError(error));
      throw error;
    }
    return prepared;
  }

  /** Runs the engine within the admission bounds; never throws (failures are outcomes). */
  async run(prepared: PreparedScrape, signal?: AbortSignal, admit = true): Promise<Outcome> {
    const { admission, engines, planner } = this.deps;
    let release: (() => Promise<void>) | null = null;
    const { plan, dispose } = planScrape(prepared.options, [], signal);
    try {
      if (admit) {
        release = await admission.admit(
          prepared.accountId,
          prepared.concurrencyLimit,
          prepared.options.timeoutMs,
        );
      }
      plan.proxies = planner.proxiesFor(prepared.options);
      plan.isolationKey = prepared.accountId;
      const result = await raceSignal(runScrape(plan, engines), plan.signal);
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: asAppError(plan.signal.aborted ? plan.signal.reason : error) };
    } finally {
      dispose();
      await release?.();
    }
  }

  /**
   * Settles (target answered) or refunds (anything else), and writes the run record, in one
   * transaction.
   */
  async finish(
    prepared: PreparedScrape,
    outcome: Outcome,
    statusCode?: number,
  ): Promise<Settlement> {
    const { store, metrics } = this.deps;
    const charged = outcome.ok ? prepared.price : 0;
    const balance = await store.transact(async (trx) => {
      const after = outcome.ok
        ? await settleCredits(trx, prepared.accountId, charged, prepared.requestId)
        : await refundCredits(trx, prepared.accountId, prepared.price, prepared.requestId);
      if (prepared.workflowId || prepared.options.webhookUrl) {
        await saveRunRecord(trx, this.record(prepared, outcome, charged, statusCode));
      }
      return after;
    });
    metrics.scrapes.inc({
      engine: prepared.options.render ? 'browser' : 'fetch',
      output: outputTypeOf(prepared.options),
      outcome: outcome.ok ? 'success' : outcome.error.code,
    });
    if (charged > 0) metrics.creditsCharged.inc(charged);
    return { charged, balance };
  }

  private record(
    prepared: PreparedScrape,
    outcome: Outcome,
    charged: number,
    statusCode?: number,
  ): RunRecord {
    return runRecordOf(prepared, {
      status: outcome.ok ? 'success' : 'failed',
      statusCode: statusCode ?? (outcome.ok ? 200 : outcome.error.status),
      targetStatus: outcome.ok ? outcome.result.targetStatus : null,
      credits: charged,
      durationMs: Date.now() - prepared.createdAt,
      error: outcome.ok ? null : outcome.error.message,
    });
  }

  /** A workflow run refused after validation (proxy, address, credits) is still a run. */
  private async recordRefusal(prepared: PreparedScrape, error: AppError): Promise<void> {
    if (!prepared.workflowId) return;
    const record = this.record(prepared, { ok: false, error }, 0);
    await this.deps.store.transact((trx) => saveRunRecord(trx, record));
  }
}

/** Engines honour the signal; this guarantees the budget even if one does not. */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type RunState = Pick<
  RunRecord,
  'status' | 'statusCode' | 'targetStatus' | 'credits' | 'durationMs' | 'error'
>;

/**
 * The request record of a prepared scrape as it stands now (pending in the webhook queue, or
 * finished). A webhook run's delivery state starts pending; the delivery job moves it on.
 */
export function runRecordOf(prepared: PreparedScrape, state: RunState): RunRecord {
  const { options } = prepared;
  return {
    id: prepared.requestId,
    accountId: prepared.accountId,
    workflowId: prepared.workflowId,
    url: options.url,
    ...state,
    outputType: outputTypeOf(options),
    render: options.render,
    proxyType: options.proxyType,
    proxyCountry: options.proxyCountry,
    webhook: options.webhookUrl
      ? { url: options.webhookUrl, status: 'pending', attempts: 0, lastError: null }
      : null,
    createdAt: prepared.createdAt,
  };
}
