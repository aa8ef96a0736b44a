/**
 * The scrape, as every door (the native route, the webhook job) runs it:
 *
 *   prepare  workflow (404/400) → parameters (params/, 400) → plan: engine, output, blockers,
 *            proxies (400), price (plan.ts) → target and webhook address (400) → reserve (402)
 *   execute  admit (429/503) → pipeline (pipeline.ts: load → block → output) → settle:
 *            charge or refund, and the run record, in one transaction
 *
 * Checks run in contract 1.2's order: key (auth, before this), workflow, parameters, proxy,
 * credits, concurrency; except the node's own bound, which an HTTP door checks first
 * (`holdNode`, 503) so that a saturated node refuses before any database work. Nothing here
 * knows about HTTP; failures are catalog errors.
 */

import type { Account } from '../accounts/account-store.js';
import {
  endRequest,
  type ReservationHold,
  refund,
  refundIfHeld,
  reserve,
  SETTLE_GRACE_MS,
  shortOf,
} from '../billing/credits.js';
import { LateRefunds } from '../billing/late-refunds.js';
import { type AppError, appError, isAppError } from '../errors.js';
import { databaseUnavailable, isDatabaseUnavailable } from '../store/database-errors.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import type { KeptResults } from '../store/kept-results.js';
import { loadWorkflowForRun, type ScheduledRun, saveRunRecord } from '../store/run-records.js';
import type { Admission, NodeSlot, Release } from './admission/admission.js';
import { resultBytes } from './output/index.js';
import { parseScraperRequest, savedConfigFromWorkflow, workflowIdOf } from './params/index.js';
import { type PipelineParts, runPipeline } from './pipeline.js';
import { type Planner, type PlanRequest, priceKey } from './plan.js';
import { finishedRecord, refusedRecord } from './run-record-of.js';
import type {
  AskedRequest,
  EngineName,
  Outcome,
  OutputType,
  RequestSource,
  ScrapeOptions,
  ScrapePlan,
  ScrapeResult,
  ScrapeRun,
  UsedResources,
} from './types.js';

export interface Settlement {
  charged: number;
  balance: number;
}

export type Settled = { outcome: Outcome; settled: true } & Settlement;
export type Unsettled = { outcome: Outcome; settled: false };

/** What the pipeline reports; the composition root hands in the Prometheus side. */
export interface ScrapeMetrics {
  scraped(engine: EngineName, output: OutputType, outcome: string): void;
  charged(credits: number): void;
}

export interface ScrapeUseCaseDeps {
  store: Store;
  planner: Planner;
  admission: Admission;
  pipeline: PipelineParts;
  metrics: ScrapeMetrics;
  /**
   * Which results the request log keeps (RESULT_RETENTION_DAYS, RESULT_MAX_BYTES); absent or
   * `keep: false`: none.
   */
  results?: ResultKeeping;
  /**
   * This node's stable name (main.ts), stamped on the reservations it holds so that its next
   * start, or the reaper after their deadline, can end those a crash left open. Null until
   * known (the bound port is part of it): reservations then carry no holder.
   */
  nodeName?: () => string | null;
  /** Where refunds wait while the database is unreachable. Default: one of its own. */
  lateRefunds?: LateRefunds;
}

/** Batch and crawl pages keep their reservation across nodes: their lane job ends it. */
const JOB_HELD: ReadonlySet<RequestSource> = new Set(['batch', 'crawl']);

export interface ResultKeeping {
  keep: boolean;
  /** A result larger than this is not kept (its record still is). */
  maxResultBytes: number;
  /** Writes them behind the answer (the settle only writes the charge and the record). */
  writer: Pick<KeptResults, 'keep'>;
}

export interface ExecuteOptions {
  /** Aborting it (the caller hung up, the node stops) ends the run with its reason. */
  signal?: AbortSignal;
  /** Asked before each redirect hop (ScrapeRun.followRedirect): a crawl's robots.txt. */
  followRedirect?: ScrapeRun['followRedirect'];
  /** The node slot the door took (`holdNode`) before preparing; the run uses and frees it. */
  nodeSlot?: NodeSlot;
  /**
   * False: the door keeps its own form of the result (`keep`) once it knows the charge (the
   * Firecrawl Document, whose metadata carry it and the scrape id). Default: the pipeline's.
   */
  keepResult?: boolean;
}

export interface DeferredExecuteOptions extends ExecuteOptions {
  /**
   * Runs between the pipeline and the settlement (the webhook job stores the result here).
   * Returns the outcome to settle (a stored one may win over this run's), or null to leave
   * the scrape unsettled (its reservation stays) for a later `settle`.
   */
  beforeSettle(outcome: Outcome): Promise<Outcome | null>;
}

/**
 * What a successful scrape costs: the price of the way it loaded, when the plan had a choice,
 * less what its output did not use.
 */
function chargeOf(plan: ScrapePlan, result: ScrapeResult): number {
  const unspent = result.unspent ?? 0;
  if (!plan.prices || !result.used) return plan.price - unspent;
  return (plan.prices[priceKey(result.used.engine, result.used.proxyType)] ?? plan.price) - unspent;
}

/** The answer of a failure as the run record keeps it. */
function asAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  // The account's slots live in the database on PostgreSQL: an outage there is a 503.
  return isDatabaseUnavailable(error) ? databaseUnavailable() : appError('INTERNAL');
}

export class ScrapeUseCase {
  private readonly lateRefunds: LateRefunds;

  constructor(private readonly deps: ScrapeUseCaseDeps) {
    this.lateRefunds = deps.lateRefunds ?? new LateRefunds();
  }

  /**
   * A node slot, or 503 (NODE_SATURATED) at once: a door takes it before `prepare`, so a
   * saturated node refuses before any database work (no reservation, no ledger row, no
   * record) and a balancer may retry elsewhere. The door releases it when its call ends.
   */
  holdNode(): NodeSlot {
    return this.deps.admission.holdNode();
  }

  /**
   * Validates, plans and reserves; throws the caller's 4xx, and then nothing is charged.
   * `requestId` names the scrape everywhere (the route passes its X-Request-Id).
   */
  async prepare(
    account: Pick<Account, 'id' | 'concurrencyLimit'>,
    query: Record<string, unknown>,
    requestId: string = newId(),
    schedule?: ScheduledRun,
    source?: RequestSource,
  ): Promise<ScrapePlan> {
    const { store } = this.deps;
    const workflowId = workflowIdOf(query);
    const saved = workflowId
      ? savedConfigFromWorkflow(await loadWorkflowForRun(store.db, account.id, workflowId))
      : null;
    return this.reserve({
      requestId,
      accountId: account.id,
      concurrencyLimit: account.concurrencyLimit,
      workflowId,
      options: parseScraperRequest(query, saved),
      createdAt: Date.now(),
      ...(schedule ? { schedule } : {}),
      source: source ?? (schedule ? 'schedule' : workflowId ? 'workflow' : 'api'),
    });
  }

  /**
   * `prepare` for options another door has validated and translated (the Firecrawl API):
   * plan, address checks and reserve, with the same failures.
   */
  prepareOptions(
    account: Pick<Account, 'id' | 'concurrencyLimit'>,
    options: ScrapeOptions,
    requestId: string = newId(),
    source: RequestSource = 'firecrawl',
    asked?: AskedRequest,
  ): Promise<ScrapePlan> {
    return this.reserve(
      {
        requestId,
        accountId: account.id,
        concurrencyLimit: account.concurrencyLimit,
        workflowId: null,
        options,
        createdAt: Date.now(),
        source,
        ...(asked ? { asked } : {}),
      },
      true,
    );
  }

  /**
   * `figures`: a 402 says what the request needed and what the account has (the Firecrawl
   * door's text); without, the contract's fixed text (the native door).
   */
  private async reserve(request: PlanRequest, figures = false): Promise<ScrapePlan> {
    const { store, planner } = this.deps;
    const { workflowId } = request;
    let plan: ScrapePlan | null = null;
    try {
      const planned = await planner.planAllowed(request);
      // Not fsynced: lost with a power cut, a reservation was never seen by anyone (its
      // scrape answers only after the durable settle, which flushes it too).
      const hold = this.holdOf(request, planned.options.timeoutMs);
      plan = planned;
      const balance = await reserve(store, planned, planned.price, hold);
      if (balance === null) {
        throw await shortOf(store.db, planned.accountId, planned.price, figures);
      }
      return planned;
    } catch (error) {
      if (plan && isDatabaseUnavailable(error)) {
        // The reserve may have committed with its answer lost: refunded once the database
        // answers, if it did.
        const reserved = plan;
        this.lateRefunds.retry(() => refundIfHeld(store.db, reserved, reserved.price));
      }
      // A workflow run refused after validation (proxy, address, credits) is still a run.
      if (workflowId) {
        const record = refusedRecord(request, asAppError(error));
        await store.transact((trx) => saveRunRecord(trx, record));
      }
      throw error;
    }
  }

  /**
   * A run's `escalate`: before the pipeline loads the page a dearer way, the reservation
   * grows by the difference (one conditional reserve, so concurrent escalations never
   * overdraw); a balance that cannot cover it ends the run with a 402 saying what the way
   * costs and what the account has. The settle then returns the reservation whole.
   */
  private escalation(plan: ScrapePlan): ScrapeRun['escalate'] {
    const { prices } = plan;
    if (!prices) return undefined;
    let reserved = plan.price;
    return async (to: UsedResources) => {
      const needed = prices[priceKey(to.engine, to.proxyType)] ?? plan.price;
      if (needed <= reserved) return;
      const hold = this.holdOf(plan, plan.options.timeoutMs);
      const { store } = this.deps;
      const balance = await reserve(store, plan, needed - reserved, hold);
      if (balance === null) throw await shortOf(store.db, plan.accountId, needed, true);
      reserved = needed;
    };
  }

  /** What a plan holds: an escalated one more than its `price` (null: ask the ledger). */
  private heldBy(plan: ScrapePlan): number | null {
    return plan.prices ? null : plan.price;
  }

  private holdOf(request: PlanRequest, budgetMs: number): ReservationHold | null {
    const holder = this.deps.nodeName?.() ?? null;
    if (!holder || (request.source && JOB_HELD.has(request.source))) return null;
    return { holder, deadlineAt: request.createdAt + budgetMs + SETTLE_GRACE_MS };
  }

  /**
   * Admits, runs the pipeline and settles. Never throws for the scrape's own failures; a
   * database that cannot be reached for the settle is a 503, never charged: the reservation
   * is refunded as soon as the database answers again.
   */
  execute(plan: ScrapePlan, options?: ExecuteOptions): Promise<Settled>;
  execute(plan: ScrapePlan, options: DeferredExecuteOptions): Promise<Settled | Unsettled>;
  async execute(
    plan: ScrapePlan,
    options: ExecuteOptions & Partial<DeferredExecuteOptions> = {},
  ): Promise<Settled | Unsettled> {
    const { outcome: ran, freed } = await this.run(plan, options);
    if (options.beforeSettle) {
      await freed;
      // A job's run: its job ends the reservation, retrying the settle itself.
      const outcome = await options.beforeSettle(ran);
      if (!outcome) return { outcome: ran, settled: false };
      return { outcome, settled: true, ...(await this.settle(plan, outcome, options.keepResult)) };
    }
    // The slot's release and the settle are both waited for by the answer, not one after the
    // other (on PostgreSQL each is a round trip): the caller's next request finds its slot free.
    const settling = this.settle(plan, ran, options.keepResult);
    const [settled] = await Promise.allSettled([settling, freed]);
    await freed;
    try {
      if (settled.status === 'rejected') throw settled.reason;
      return { outcome: ran, settled: true, ...settled.value };
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.refundLater(plan);
      throw databaseUnavailable();
    }
  }

  /**
   * Ends a reservation nobody will settle as soon as the database answers again: with its run
   * record (a 503), or, when another record stands for the request (`recorded: false`: a
   * webhook's or a schedule's), the refund alone.
   */
  refundLater(plan: ScrapePlan, withRecord = true): void {
    const { store } = this.deps;
    this.lateRefunds.retry(() =>
      withRecord
        ? this.settle(plan, { ok: false, error: databaseUnavailable() })
        : store.transact((trx) => refund(trx, plan, this.heldBy(plan))),
    );
  }

  /**
   * Charges (the target answered) or refunds (anything else), and writes the request record,
   * in one transaction; a kept result follows behind the answer (store/kept-results.ts).
   * `ledger`: a caller's transaction to do it in (an extract's page: its end and its charge
   * one commit).
   */
  async settle(
    plan: ScrapePlan,
    outcome: Outcome,
    keepResult = true,
    ledger: Pick<Store, 'db' | 'dialect' | 'transact'> = this.deps.store,
  ): Promise<Settlement> {
    const { metrics } = this.deps;
    const charged = outcome.ok ? chargeOf(plan, outcome.result) : 0;
    // A plan with a choice may have reserved more than the way it used: the rest goes back.
    const balance = await endRequest(ledger, {
      accountId: plan.accountId,
      requestId: plan.requestId,
      charged: outcome.ok ? charged : null,
      held: this.heldBy(plan),
      record: finishedRecord(plan, outcome, charged),
    });
    if (outcome.ok && keepResult) this.keep(plan, outcome.result);
    metrics.scraped(plan.engine, plan.output, outcome.ok ? 'success' : outcome.error.code);
    if (charged > 0) metrics.charged(charged);
    return { charged, balance };
  }

  /**
   * Keeps a result for the request log (RESULT_RETENTION_DAYS; not one over RESULT_MAX_BYTES),
   * behind the answer: the settle's own, or a door's form of it (`keepResult: false`).
   */
  keep(
    plan: Pick<ScrapePlan, 'requestId' | 'accountId'>,
    result: { contentType: string; body: Buffer } | ScrapeResult,
  ): void {
    const { results } = this.deps;
    if (!results?.keep) return;
    const body = 'finalUrl' in result ? resultBytes(result) : result.body;
    if (body.length > results.maxResultBytes) return;
    const { requestId, accountId } = plan;
    results.writer.keep({ requestId, accountId, contentType: result.contentType, body });
  }

  /**
   * A stored plan (the webhook job's payload) as a plan. Payloads stored before plans were
   * complete lack the planner's decisions: they are planned again.
   */
  restore(payload: unknown): ScrapePlan {
    const stored = payload as ScrapePlan;
    if (stored.engine !== undefined) return stored;
    return this.deps.planner.plan(stored);
  }

  /** The outcome, and the release of its admission slot, under way (`freed`). */
  private async run(
    plan: ScrapePlan,
    options: ExecuteOptions,
  ): Promise<{ outcome: Outcome; freed: Promise<void> }> {
    const { admission, pipeline } = this.deps;
    const { run, dispose } = startRun(
      plan,
      options.signal,
      options.followRedirect,
      this.escalation(plan),
    );
    let release: Release | null = null;
    let outcome: Outcome;
    try {
      release = await admission.admit(
        plan.accountId,
        plan.concurrencyLimit,
        plan.options.timeoutMs,
        options.nodeSlot,
      );
      const result = await raceSignal(runPipeline(run, pipeline), run.signal);
      outcome = { ok: true, result };
    } catch (error) {
      outcome = { ok: false, error: asAppError(run.signal.aborted ? run.signal.reason : error) };
    } finally {
      dispose();
    }
    // A slot the database cannot free now is freed once it answers: left to expire with its
    // row, it would hold the account at its limit (429s) long after the outage.
    const free = release;
    const freed = free
      ? free().catch((error: unknown) => {
          if (!isDatabaseUnavailable(error)) throw error;
          this.lateRefunds.retry(free);
        })
      : Promise.resolve();
    return { outcome, freed };
  }
}

/**
 * Engines honour the signal; this guarantees the budget even if one does not. The work is
 * always awaited too, also when the signal was aborted before the race began (the budget ran
 * out during admission): a rejection left without a handler ends the whole process.
 */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Starts a plan's clock: the budget runs from now, so time a webhook job spent queued does
 * not count. The run ends (TIMED_OUT) at the deadline, or with the parent signal's reason.
 */
export function startRun(
  plan: ScrapePlan,
  parentSignal?: AbortSignal,
  followRedirect?: ScrapeRun['followRedirect'],
  escalate?: ScrapeRun['escalate'],
): { run: ScrapeRun; dispose(): void } {
  const { timeoutMs } = plan.options;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(appError('TIMED_OUT', timeoutMs)), timeoutMs);
  const onParentAbort = () => controller.abort(parentSignal?.reason);
  if (parentSignal?.aborted) onParentAbort();
  else parentSignal?.addEventListener('abort', onParentAbort, { once: true });
  return {
    run: {
      ...plan,
      deadline: Date.now() + timeoutMs,
      signal: controller.signal,
      ...(followRedirect ? { followRedirect } : {}),
      ...(escalate ? { escalate } : {}),
    },
    dispose() {
      clearTimeout(timer);
      parentSignal?.removeEventListener('abort', onParentAbort);
    },
  };
}
