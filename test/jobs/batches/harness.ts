/**
 * Batches on a real embedded store, job queue and ledger, with a scraper that stands in for
 * ScrapeUseCase: it reserves, settles and refunds through the real credit ledger exactly as
 * the use case does, and scrapes nothing (each URL's behaviour is scripted). Lane jobs can run
 * under a real JobWorker, or be driven one claim at a time to stage crashes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../../src/accounts/account-store.js';
import {
  refundCredits,
  reserveCredits,
  settleCredits,
} from '../../../src/billing/credit-ledger.js';
import { charge } from '../../../src/billing/credits.js';
import { appError } from '../../../src/errors.js';
import type { FirecrawlServices } from '../../../src/firecrawl/door-services.js';
import { type BatchService, createBatchService } from '../../../src/jobs/batches/batch-service.js';
import { LANE_JOB } from '../../../src/jobs/batches/job-kinds.js';
import { laneJobHandler } from '../../../src/jobs/batches/lane-job.js';
import type { PageRunDeps } from '../../../src/jobs/batches/page-run.js';
import { type JobHandler, type JobOutcome, JobWorker } from '../../../src/jobs/job-worker.js';
import type {
  DeferredExecuteOptions,
  Settled,
  Settlement,
  Unsettled,
} from '../../../src/scrape/scrape-use-case.js';
import type { Outcome, ScrapeOptions, ScrapePlan } from '../../../src/scrape/types.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { newId } from '../../../src/store/ids.js';
import { type ClaimedJob, JobQueue } from '../../../src/store/job-queue.js';

/** What the scripted scrape of a URL does on its n-th run (1-based). */
export type Behaviour =
  | 'ok'
  | 'fail'
  /** The account is at its concurrency limit (admission's 429). */
  | 'busy'
  /** The process dies while the page loads: nothing is stored. */
  | 'die-scraping'
  /** The process dies after the result was stored, before it was settled. */
  | 'die-before-settle';

export class FakeScraper {
  /** Completed loads per URL (admission refusals and deaths mid-load are not loads). */
  readonly loads = new Map<string, number>();
  private readonly runs = new Map<string, number>();
  running = 0;
  maxRunning = 0;
  price = 1;
  behaviour: (url: string, run: number) => Behaviour = () => 'ok';
  /** Awaited while a page "loads": tests hold pages in flight with it. */
  hold: (url: string) => Promise<void> = async () => {};
  /** A body for a URL's document (default: a small page). */
  markdown: (url: string) => string = (url) => `# Page ${url}`;

  constructor(private readonly store: Store) {}

  async prepareOptions(
    account: { id: string; concurrencyLimit: number },
    options: ScrapeOptions,
    requestId: string = newId(),
  ): Promise<ScrapePlan> {
    const balance = await reserveCredits(this.store.db, account.id, this.price, requestId);
    if (balance === null) throw appError('INSUFFICIENT_CREDITS');
    return {
      requestId,
      accountId: account.id,
      concurrencyLimit: account.concurrencyLimit,
      workflowId: null,
      price: this.price,
      createdAt: Date.now(),
      options,
    } as unknown as ScrapePlan;
  }

  async execute(plan: ScrapePlan, options: DeferredExecuteOptions): Promise<Settled | Unsettled> {
    const url = plan.options.url;
    const run = (this.runs.get(url) ?? 0) + 1;
    this.runs.set(url, run);
    const behaviour = this.behaviour(url, run);
    let outcome: Outcome;
    if (behaviour === 'busy') {
      outcome = { ok: false, error: appError('TOO_MANY_CONCURRENT') };
    } else {
      this.running++;
      this.maxRunning = Math.max(this.maxRunning, this.running);
      try {
        await this.hold(url);
      } finally {
        this.running--;
      }
      if (behaviour === 'die-scraping') throw new Error('process killed while loading');
      this.loads.set(url, (this.loads.get(url) ?? 0) + 1);
      outcome =
        behaviour === 'fail'
          ? { ok: false, error: appError('FETCH_FAILED', 'connection refused') }
          : { ok: true, result: this.resultOf(url) };
    }
    const settleWith = await options.beforeSettle(outcome);
    if (behaviour === 'die-before-settle') throw new Error('process killed before settling');
    if (!settleWith) return { outcome, settled: false };
    return { outcome: settleWith, settled: true, ...(await this.settle(plan, settleWith)) };
  }

  async settle(plan: ScrapePlan, outcome: Outcome): Promise<Settlement> {
    const { db } = this.store;
    const balance = await db
      .transaction()
      .execute((trx) =>
        outcome.ok
          ? settleCredits(trx, plan.accountId, plan.price, plan.requestId)
          : refundCredits(trx, plan.accountId, plan.price, plan.requestId),
      );
    return { charged: outcome.ok ? plan.price : 0, balance };
  }

  /** The request log's kept results are not this harness's concern. */
  keep(): void {}

  restore(payload: unknown): ScrapePlan {
    return payload as ScrapePlan;
  }

  private resultOf(url: string) {
    const document = { markdown: this.markdown(url), metadata: { title: `Title ${url}` } };
    return {
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from(JSON.stringify(document)),
      finalUrl: url,
      targetStatus: 200,
    };
  }
}

/** The account's result cache: URLs containing `cached` are hits; charges go to the ledger. */
export function fakeCache(store: Store, hitPrice = 1) {
  const remembered: string[] = [];
  const cache: Pick<FirecrawlServices, 'cached' | 'chargeHit' | 'remember'> = {
    async cached(_accountId, options) {
      if (!options.url.includes('cached')) return null;
      const document = { markdown: `# Cached ${options.url}`, metadata: {} };
      return {
        cachedAt: Date.now() - 1000,
        result: {
          contentType: 'application/json; charset=utf-8',
          body: Buffer.from(JSON.stringify(document)),
          finalUrl: options.url,
          targetStatus: 200,
        },
      };
    },
    async chargeHit(accountId, requestId, record) {
      const balance = await charge(store, { accountId, requestId }, hitPrice, record(hitPrice));
      return { charged: hitPrice, balance };
    },
    async remember(_accountId, options) {
      remembered.push(options.url);
    },
  };
  return { cache, remembered };
}

export const WORKER_ID = 'node-a/batch-lane';
const LEASE_MS = 60_000;

export interface Harness {
  store: Store;
  jobs: JobQueue;
  service: BatchService;
  scraper: FakeScraper;
  accountId: string;
  account: { id: string; concurrencyLimit: number };
  handler: JobHandler;
  remembered: string[];
  /** Runs lane jobs under a real worker until `stop`. */
  startWorker(concurrency?: number): JobWorker;
  /**
   * Claims one lane job and runs its handler, applying the outcome as the worker does; a
   * handler that throws (a staged death) leaves the job as a dead process would.
   */
  step(): Promise<{ job: ClaimedJob; outcome: JobOutcome | 'died' } | null>;
  /** Claims one lane job and dies at once (kill -9 right after the claim). */
  claimAndDie(): Promise<ClaimedJob | null>;
  /** What a restart of the embedded store's only node does: every lease is freed. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  options: { credits?: number; concurrencyLimit?: number } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-batches-'));
  const store = await openStore({ databaseUrl: null, dataDir: dir });
  const jobs = new JobQueue(store.db, store.dialect);
  const { account } = await createAccount(store.db, {
    name: 't',
    credits: options.credits ?? 1000,
    concurrencyLimit: options.concurrencyLimit ?? 10,
  });
  const scraper = new FakeScraper(store);
  const { cache, remembered } = fakeCache(store);
  const workers: JobWorker[] = [];
  const wake = () => {
    for (const worker of workers) worker.wake();
  };
  const handler = laneJobHandler({
    db: store.db,
    dialect: store.dialect,
    jobs,
    // Structurally the use case's prepareOptions, execute (deferred), settle and restore.
    scraper: scraper as unknown as PageRunDeps['scraper'],
    cache,
    screenshots: () => ({ link: async () => 'http://127.0.0.1/shot' }),
    workerId: WORKER_ID,
    leaseMs: LEASE_MS,
    onQueued: wake,
  });
  const service = createBatchService({
    store,
    jobs,
    assertAllowed: async () => {},
    retentionMs: 3600_000,
    onQueued: wake,
  });
  return {
    store,
    jobs,
    service,
    scraper,
    accountId: account.id,
    account: { id: account.id, concurrencyLimit: account.concurrencyLimit },
    handler,
    remembered,
    startWorker(concurrency = 8) {
      const worker = new JobWorker({
        queue: jobs,
        workerId: WORKER_ID,
        kinds: [LANE_JOB],
        handler,
        concurrency,
        leaseMs: LEASE_MS,
        pollMs: 20,
      });
      workers.push(worker);
      worker.start();
      return worker;
    },
    async step() {
      const [job] = await jobs.claim(WORKER_ID, [LANE_JOB], 1, LEASE_MS);
      if (!job) return null;
      let outcome: JobOutcome;
      try {
        outcome = await handler(job, new AbortController().signal);
      } catch {
        return { job, outcome: 'died' };
      }
      if (outcome.type === 'done') await jobs.complete(job.id, WORKER_ID);
      else if (outcome.type === 'release') await jobs.release(job.id, WORKER_ID);
      else if (outcome.type === 'retry')
        await jobs.retry(job.id, WORKER_ID, Date.now(), outcome.error);
      else if (outcome.type === 'fail') await jobs.fail(job.id, WORKER_ID, outcome.error);
      return { job, outcome };
    },
    async claimAndDie() {
      const [job] = await jobs.claim(WORKER_ID, [LANE_JOB], 1, LEASE_MS);
      return job ?? null;
    },
    async restart() {
      await jobs.releaseAllLeases();
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.stop(0)));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ledger rows of the account by kind. */
export async function ledgerOf(store: Store, accountId: string) {
  const rows = await store.db
    .selectFrom('ledger')
    .select(['request_id', 'kind', 'amount'])
    .where('account_id', '=', accountId)
    .execute();
  const of = (kind: string) => rows.filter((row) => row.kind === kind);
  return { reserve: of('reserve'), settle: of('settle'), refund: of('refund'), rows };
}

/** Event jobs queued for a batch, by their key (started, page.<idx>, completed, failed). */
export async function eventKeysOf(store: Store, batchId: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom('jobs')
    .select('id')
    .where('id', 'like', `${batchId}.event.%`)
    .execute();
  return rows.map((row) => row.id.slice(`${batchId}.event.`.length)).sort();
}

export const siteUrls = (n: number, prefix = 'page') =>
  Array.from({ length: n }, (_, i) => `http://site.test/${prefix}/${i}`);
