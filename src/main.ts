/**
 * The composition root: config → data-dir lock → store → first account → engines → app →
 * listen. Every part is built here and handed its dependencies; nothing else builds parts.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { countAccounts, createAccount } from './accounts/account-store.js';
import { ApiKeyLookup } from './accounts/api-key-lookup.js';
import { type AppInstance, buildApp } from './api/app.js';
import { createMetrics, registerProxyMetrics } from './api/metrics.js';
import { pressureSource } from './api/services.js';
import { LateRefunds } from './billing/late-refunds.js';
import { priceOf } from './billing/pricing.js';
import {
  refundAbandonedReservations,
  releaseOwnReservations,
} from './billing/reservation-reaper.js';
import { createBatchJobs } from './compose/batch-jobs.js';
import { createExtractJobs } from './compose/extract-jobs.js';
import { applyHeapGrowth } from './compose/heap-growth.js';
import { createScheduleJobs } from './compose/schedule-jobs.js';
import { buildScrapeParts } from './compose/scrape-parts.js';
import { CLOSE_MARGIN_MS, listenError, StartUp } from './compose/start-up.js';
import { createWebhookDelivery } from './compose/webhook-delivery.js';
import type { Config } from './config.js';
import { createFirecrawlServices, type FirecrawlServices } from './firecrawl/door-services.js';
import { createWebhookPoster } from './jobs/webhooks/post-webhook.js';
import { createMapService } from './map/map-service.js';
import { createChatModel } from './models/chat-model.js';
import { createModelCalls } from './models/model-calls.js';
import { loadPlaywright } from './scrape/engines/browser/chromium-process.js';
import { createCachingLookup } from './scrape/net/dns-cache.js';
import { createHttpClient } from './scrape/net/http-client.js';
import { ScrapeUseCase } from './scrape/scrape-use-case.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { openStore, type Store } from './store/db.js';
import { JobQueue } from './store/job-queue.js';
import { KeptResults } from './store/kept-results.js';
import { ResultFiles } from './store/result-files.js';
import { WorkflowListCache } from './workflows/list-cache.js';
import { WorkflowService } from './workflows/workflow-service.js';

/** Credits of the account created on the first start of an empty embedded database. */
export const FIRST_ACCOUNT_CREDITS = 1000;

/** What a first start on an empty embedded database created, for the operator's banner. */
export interface FirstRun {
  apiKey: string;
  accountName: string;
  accountId: string;
  credits: number;
  /** http://host:port the service listens on. */
  url: string;
}

export interface ServiceOptions {
  /** Receives the first start's account and key, once the service listens. */
  announceFirstRun?: (firstRun: FirstRun) => void;
  logStream?: DestinationStream;
  /** Launch the first browser at start rather than on the first render (`serve` does). */
  warmBrowser?: boolean;
  /**
   * Start the output workers (Markdown, blocking, documents) at start rather than on the
   * first page that needs one, without waiting for them to listen (`serve` does, unless
   * MARKDOWN_WORKERS_AT_START=false).
   */
  warmOutputWorkers?: boolean;
  /**
   * Which addresses the SSRF guard lets every part reach without ALLOW_PRIVATE_NETWORKS.
   * Default: public ones only (`isPublicAddress`). Tests only: their sites all live on
   * loopback, so a test may call 127.0.0.1 public and 127.0.0.2 private, as the engines'
   * own tests do.
   */
  addressPolicy?: (ip: string) => boolean;
  /**
   * Stops the start (a signal during start-up): the parts built so far are closed and
   * startService rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

export interface RunningService {
  app: AppInstance;
  store: Store;
  /** http://host:port actually bound. */
  url: string;
  close(): Promise<void>;
  /** SIGTERM/SIGINT: drain and exit. */
  closeOnSignals(): void;
}

async function ensureFirstAccount(store: Store, config: Config) {
  if (store.dialect !== 'sqlite' || (await countAccounts(store.db)) > 0) return null;
  const { account, apiKey } = await createAccount(store.db, {
    name: 'default',
    credits: FIRST_ACCOUNT_CREDITS,
    concurrencyLimit: config.accountConcurrency,
  });
  return { apiKey, accountName: account.name, accountId: account.id, credits: account.credits };
}

/**
 * app.close() stops listening and waits for open connections, but Node closes idle keep-alive
 * sockets only once, when called: a socket whose response ends later would hold the drain
 * until its keep-alive timeout (72 s in Fastify). So idle sockets are swept until closed.
 */
async function closeHttp(app: AppInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

/** How often each node sweeps for reservations whose request died with its node. */
const REAPER_INTERVAL_MS = 60_000;

function startReservationReaper(store: Store, app: AppInstance): () => void {
  const timer = setInterval(() => {
    refundAbandonedReservations(store.db).then(
      (refunded) => {
        if (refunded > 0) app.log.warn({ refunded }, 'refunded abandoned reservations');
      },
      (error: unknown) => app.log.error({ err: error }, 'reservation sweep failed'),
    );
  }, REAPER_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The default NODE_NAME: the same for this node's next start (same host, same address), and
 * no two live processes have it, since only one can listen on an address and port.
 */
function nodeNameOf(app: AppInstance): string {
  const address = app.server.address() as AddressInfo;
  return `${hostname()}:${address.address}:${address.port}`;
}

/**
 * Ends the reservations this node held when it died (kill -9, a crash) at once, rather than
 * after their deadline. On the embedded engine the data-dir lock makes this the only node, so
 * every held reservation is dead; on PostgreSQL only those under this node's name. Not
 * awaited: if the database cannot answer now, the reaper ends them after their deadline.
 */
function releaseAtStart(store: Store, app: AppInstance, name: string, startedAt: number): void {
  const holder = store.dialect === 'sqlite' ? null : name;
  releaseOwnReservations(store.db, { holder, before: startedAt }).then(
    (refunded) => {
      if (refunded > 0) app.log.warn({ refunded }, 'refunded reservations of a previous run');
    },
    (error: unknown) => app.log.error({ err: error }, 'start-up reservation release failed'),
  );
}

/** How often each node deletes expired screenshots, cache entries and kept results. */
const PAGE_PURGE_INTERVAL_MS = 10 * 60_000;

function startPagePurge(
  firecrawl: FirecrawlServices,
  keptResults: KeptResults,
  config: Config,
  app: AppInstance,
): () => void {
  const timer = setInterval(() => {
    firecrawl.purge().catch((error: unknown) => app.log.error({ err: error }, 'page purge failed'));
    const before = Date.now() - config.resultRetentionDays * 24 * 3600_000;
    keptResults
      .purge(before, config.resultAccountBytes)
      .catch((error: unknown) => app.log.error({ err: error }, 'request result purge failed'));
  }, PAGE_PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function startService(
  config: Config,
  options: ServiceOptions = {},
): Promise<RunningService> {
  applyHeapGrowth(config.heapGrowingPercent);
  const startUp = new StartUp(options.signal);
  const lock = config.databaseUrl ? null : lockDataDir(config.dataDir);
  if (lock) startUp.add(() => lock.release());
  try {
    const store = await startUp.build(
      openStore({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolSize: config.pgPoolSize,
        connectTimeoutMs: config.pgConnectTimeoutMs,
        statementTimeoutMs: config.pgStatementTimeoutMs,
      }),
      (opened) => opened.close(),
    );
    const firstAccount = await startUp.step(ensureFirstAccount(store, config));
    let draining = false;
    const nodeId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const metrics = createMetrics();
    const warnings: string[] = [];
    // The one HTTP client every part sends through (its address guard built here only);
    // added before the parts that use it, so it closes after them.
    const http = createHttpClient({
      allowPrivateNetworks: config.allowPrivateNetworks,
      maxBodyBytes: config.maxBodyBytes,
      lookup: createCachingLookup(),
      ...(options.addressPolicy ? { isAllowedAddress: options.addressPolicy } : {}),
    });
    startUp.add(() => http.close());
    // Known once listening (the bound port is part of the default); see releaseAtStart.
    let nodeName: string | null = null;
    let reportRefundError = (_error: unknown) => {};
    const lateRefunds = new LateRefunds((error) => reportRefundError(error));
    startUp.add(() => lateRefunds.close());
    // Before the scrape parts (change_tracking reads them), flushed before they close.
    // On the embedded engine kept results may be files beside the database (RESULT_FILES);
    // those written are read and purged whatever the setting is now.
    const keptResults = new KeptResults(store, {
      files: config.databaseUrl ? null : new ResultFiles(join(config.dataDir, 'results')),
      writeFiles: config.resultFiles,
    });
    const scrape = await startUp.build(
      buildScrapeParts(config, store, nodeId, (w) => warnings.push(w), http, { keptResults }),
      (parts) => parts.close(),
    );
    registerProxyMetrics(metrics.registry, () => scrape.proxyHealth.stats());
    startUp.add(() => keptResults.flush());
    const scraper = new ScrapeUseCase({
      store,
      planner: scrape.planner,
      admission: scrape.admission,
      pipeline: scrape.pipeline,
      results: {
        keep: config.resultRetentionDays > 0,
        maxResultBytes: config.resultMaxBytes,
        writer: keptResults,
      },
      nodeName: () => nodeName,
      lateRefunds,
      metrics: {
        scraped: (engine, output, outcome) => metrics.scrapes.inc({ engine, output, outcome }),
        charged: (credits) => metrics.creditsCharged.inc(credits),
      },
    });
    const firecrawl = createFirecrawlServices(store, config);
    const map = createMapService({
      store,
      http,
      admission: scrape.admission,
      // A map costs what a plain fetch costs (1 credit by default, Firecrawl's price too).
      price: priceOf(config.pricing, false, 'datacenter'),
      maxDocumentBytes: config.maxBodyBytes,
      nodeName: () => nodeName,
      lateRefunds,
    });
    startUp.add(() => map.close());
    let reportJobError = (_error: unknown) => {};
    // One queue for every job kind; claims and releases are relaxed units (a claim lost with
    // the machine's power only leaves the job to be claimed again).
    const jobs = new JobQueue(store.db, store.dialect, Date.now, (work) =>
      store.transact(work, { durable: false }),
    );
    const post = createWebhookPoster({ http, timeoutMs: config.webhookTimeoutMs });
    const webhooks = createWebhookDelivery({
      store,
      jobs,
      post,
      scraper,
      nodeId,
      settings: config,
      onError: (error) => reportJobError(error),
      onDeliveryAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
    });
    startUp.add(() => webhooks.stop(0));
    const models = config.model ? createModelCalls(store, createChatModel(config.model)) : null;
    const batches = createBatchJobs({
      store,
      jobs,
      http,
      post,
      scraper,
      planner: scrape.planner,
      firecrawl,
      derived: { models, previous: { db: store.db, keptResults } },
      nodeId,
      settings: config,
      onError: (error) => reportJobError(error),
    });
    startUp.add(() => batches.stop(0));
    const schedules = createScheduleJobs({
      store,
      scraper,
      webhooks: webhooks.queue,
      jobs,
      nodeId,
      settings: config,
      onError: (error) => reportJobError(error),
    });
    startUp.add(() => schedules.stop(0));
    const extracts = createExtractJobs({
      store,
      scraper,
      map,
      models,
      maxPages: config.model?.extractMaxPages ?? 0,
      nodeId,
      settings: config,
      onError: (error) => reportJobError(error),
    });
    startUp.add(() => extracts.stop(0));
    const app = await buildApp({
      config,
      services: {
        keys: new ApiKeyLookup(store),
        store,
        keptResults,
        metrics,
        scraper,
        webhooks: webhooks.queue,
        workflows: new WorkflowService(store, new WorkflowListCache(store)),
        readiness: {
          draining: () => draining,
          browser: () => scrape.pipeline.browser.status(),
        },
        pressure: pressureSource(scrape.admission, scrape.pipeline.browser, () => draining),
        firecrawl,
        admission: scrape.admission,
        batches: batches.service,
        crawls: batches.crawls,
        map,
        schedules: schedules.service,
        models,
        extracts: extracts.service,
      },
      ...(options.logStream ? { logStream: options.logStream } : {}),
    });
    startUp.add(() => app.close());
    for (const warning of warnings) app.log.warn(warning);
    if (options.warmBrowser) {
      await loadPlaywright();
      scrape.pipeline.browser.warmUp().catch((error: unknown) => {
        app.log.warn({ err: error }, 'browser warm-up failed; renders will retry the launch');
      });
    }
    // A worker that fails to boot is replaced when a page needs it, as without the warm-up.
    if (options.warmOutputWorkers) void scrape.pipeline.output.warmUp();
    reportJobError = (error) => app.log.error({ err: error }, 'webhook job failed unexpectedly');
    reportRefundError = (error) => app.log.error({ err: error }, 'late refund failed');
    const startedAt = Date.now();
    await startUp.step(
      app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
        throw listenError(error, config.host, config.port);
      }),
    );
    nodeName = config.nodeName ?? nodeNameOf(app);
    releaseAtStart(store, app, nodeName, startedAt);
    await startUp.step(webhooks.start());
    batches.start();
    schedules.start();
    extracts.start();
    const stopReaper = startReservationReaper(store, app);
    const stopPurge = startPagePurge(firecrawl, keptResults, config, app);
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    if (firstAccount) options.announceFirstRun?.({ ...firstAccount, url });
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= (async () => {
        draining = true;
        stopReaper();
        stopPurge();
        const grace = new Promise<void>((resolve) => {
          setTimeout(resolve, config.shutdownGraceMs).unref();
        });
        // The workers stop taking jobs at once; running ones finish or are handed back.
        await Promise.all([
          Promise.race([closeHttp(app), grace]),
          webhooks.stop(config.shutdownGraceMs),
          batches.stop(config.shutdownGraceMs),
          schedules.stop(config.shutdownGraceMs),
          extracts.stop(config.shutdownGraceMs),
        ]);
        // After the drain: a request settling during it may still hand over a refund. What
        // is left waiting is ended by this node's next start or by the reaper.
        lateRefunds.close();
        await scrape.close();
        await map.close();
        await keptResults.flush();
        await store.close();
        lock?.release();
      })();
      return closing;
    };
    return {
      app,
      store,
      url,
      close,
      closeOnSignals() {
        const onSignal = (signal: NodeJS.Signals) => {
          app.log.info({ signal }, 'shutting down');
          setTimeout(() => {
            app.log.error('parts still open after the shutdown grace; exiting regardless');
            lock?.release();
            process.exit(1);
          }, config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
          close().then(
            () => process.exit(0),
            (error: unknown) => {
              app.log.error({ err: error }, 'shutdown failed');
              process.exit(1);
            },
          );
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
      },
    };
  } catch (error) {
    await startUp.teardown(() => {});
    throw error;
  }
}
