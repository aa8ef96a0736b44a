/**
 * Batch scrapes and crawls (the Firecrawl door's /batch/scrape and /crawl), built by the
 * composition root: the services their routes call, and two workers over the shared job
 * table, one running the lanes (pages) of batches and crawls, one sending their webhook
 * events. A crawl's lanes also use its frontier (politeness, robots.txt, discovered links).
 */
import type { Config } from '../config.js';
import type { FirecrawlScrapeParts } from '../firecrawl/firecrawl-scrape.js';
import { batchScreenshotLinks } from '../jobs/batches/batch-screenshots.js';
import { type BatchService, createBatchService } from '../jobs/batches/batch-service.js';
import { eventDeliveryJobHandler } from '../jobs/batches/event-delivery-job.js';
import { EVENT_JOB, LANE_JOB } from '../jobs/batches/job-kinds.js';
import { laneJobHandler } from '../jobs/batches/lane-job.js';
import { createCrawlFrontier } from '../jobs/crawls/crawl-frontier.js';
import { type CrawlService, createCrawlService } from '../jobs/crawls/crawl-service.js';
import { createRobotsRules } from '../jobs/crawls/robots-rules.js';
import { JobWorker } from '../jobs/job-worker.js';
import type { WebhookPoster } from '../jobs/webhooks/post-webhook.js';
import type { HttpClient } from '../scrape/net/http-client.js';
import type { Planner } from '../scrape/plan.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type { Store } from '../store/db.js';
import type { RunInTransaction } from '../store/in-transaction.js';
import type { JobQueue } from '../store/job-queue.js';

/** The settings batches read (config.ts documents each and its default). */
export type BatchSettings = Pick<
  Config,
  | 'webhookBackoffMs'
  | 'webhookDeliveryConcurrency'
  | 'jobLeaseMs'
  | 'jobPollMs'
  | 'batchScrapeConcurrency'
  | 'batchRetentionMs'
  | 'crawlHostConcurrency'
  | 'crawlHostDelayMs'
  | 'crawlBackoffMs'
  | 'crawlMaxUrls'
  | 'crawlMaxStoredBytes'
  | 'crawlAllowIgnoreRobots'
>;

export interface BatchJobsOptions {
  store: Store;
  scraper: ScrapeUseCase;
  planner: Pick<Planner, 'assertAllowed'>;
  /** The door's result cache (maxAge, storeInCache). */
  firecrawl: FirecrawlScrapeParts['cache'];
  /** The formats made from a page's Markdown: the operator's model, the kept results. */
  derived: Pick<FirecrawlScrapeParts, 'models' | 'previous'>;
  /** Unique per process: lease owners are `<nodeId>/<kind>`. */
  nodeId: string;
  settings: BatchSettings;
  /** The service's one job queue (claims and releases in relaxed units). */
  jobs: JobQueue;
  /** The service's one HTTP client: robots.txt and sitemaps. */
  http: Pick<HttpClient, 'get'>;
  /** The service's one webhook sender. */
  post: WebhookPoster;
  onError?: (error: unknown) => void;
}

export interface BatchJobs {
  service: BatchService;
  crawls: CrawlService;
  start(): void;
  /**
   * Takes no new jobs; running event deliveries get `graceMs`, lane steps at most
   * LANE_STOP_GRACE_MS, then the rest are aborted and handed back to the queue.
   */
  stop(graceMs: number): Promise<void>;
}

/** How often each node deletes expired batches. */
const PURGE_INTERVAL_MS = 10 * 60_000;
/**
 * How long a stopping node lets its running lane steps finish. Not SHUTDOWN_GRACE_MS: a lane
 * step is resumable (its page keeps its plan and reservation, the step's lease is released
 * and the next holder, here or on another node, runs the page again), so a page slow to
 * answer must not hold SIGTERM for the whole grace (a crawl node once took 30 s to exit, its
 * lanes waiting on pages in flight). Pages about to end still end here.
 */
export const LANE_STOP_GRACE_MS = 1_000;

export function createBatchJobs(options: BatchJobsOptions): BatchJobs {
  const { store, settings, onError } = options;
  // Writes a later durable commit (the settle, the page's end) flushes with it.
  const relaxed: RunInTransaction = (work) => store.transact(work, { durable: false });
  const { jobs, post } = options;
  const fetcher = options.http;
  const common = {
    queue: jobs,
    leaseMs: settings.jobLeaseMs,
    pollMs: settings.jobPollMs,
    ...(onError ? { onError } : {}),
  };
  const events = new JobWorker({
    ...common,
    workerId: `${options.nodeId}/${EVENT_JOB}`,
    kinds: [EVENT_JOB],
    concurrency: settings.webhookDeliveryConcurrency,
    handler: eventDeliveryJobHandler({ db: store.db, post, backoffMs: settings.webhookBackoffMs }),
  });
  const robots = createRobotsRules({ db: store.db, fetcher });
  const frontier = createCrawlFrontier({
    db: store.db,
    dialect: store.dialect,
    robots,
    relaxed,
    settings: {
      hostConcurrency: settings.crawlHostConcurrency,
      hostDelayMs: settings.crawlHostDelayMs,
      backoffMs: settings.crawlBackoffMs,
      maxStoredBytes: settings.crawlMaxStoredBytes,
    },
  });
  const laneWorkerId = `${options.nodeId}/${LANE_JOB}`;
  const wake = (kind: 'lane' | 'event') => (kind === 'lane' ? lanes : events).wake();
  const lanes: JobWorker = new JobWorker({
    ...common,
    workerId: laneWorkerId,
    kinds: [LANE_JOB],
    concurrency: settings.batchScrapeConcurrency,
    handler: laneJobHandler({
      db: store.db,
      dialect: store.dialect,
      jobs,
      scraper: options.scraper,
      cache: options.firecrawl,
      derived: options.derived,
      screenshots: (batch) => batchScreenshotLinks(store.db, batch),
      workerId: laneWorkerId,
      leaseMs: settings.jobLeaseMs,
      onQueued: wake,
      frontier,
      relaxed,
      transact: (work) => store.transact(work),
    }),
  });
  const crawls = createCrawlService({
    store,
    jobs,
    robots,
    fetcher,
    assertAllowed: (url) => options.planner.assertAllowed(url),
    retentionMs: settings.batchRetentionMs,
    maxUrls: settings.crawlMaxUrls,
    allowIgnoreRobots: settings.crawlAllowIgnoreRobots,
    models: options.derived.models,
    onQueued: wake,
  });
  const service = createBatchService({
    store,
    jobs,
    assertAllowed: (url) => options.planner.assertAllowed(url),
    retentionMs: settings.batchRetentionMs,
    models: options.derived.models,
    onQueued: wake,
  });

  let purgeTimer: NodeJS.Timeout | null = null;
  return {
    service,
    crawls,
    start() {
      lanes.start();
      events.start();
      purgeTimer = setInterval(() => {
        service.purge().catch((error: unknown) => onError?.(error));
      }, PURGE_INTERVAL_MS);
      purgeTimer.unref();
    },
    async stop(graceMs) {
      if (purgeTimer) clearInterval(purgeTimer);
      await Promise.all([lanes.stop(Math.min(graceMs, LANE_STOP_GRACE_MS)), events.stop(graceMs)]);
    },
  };
}
