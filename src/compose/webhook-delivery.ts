/**
 * Webhook delivery (contract 21–23), built by the composition root: the queue the scraper
 * route hands prepared scrapes to, and two workers over the shared job table, one running
 * scrapes, one making delivery attempts.
 */
import type { Config } from '../config.js';
import { JobWorker } from '../jobs/job-worker.js';
import { type AttemptOutcome, deliveryJobHandler } from '../jobs/webhooks/delivery-job.js';
import { DELIVERY_JOB, SCRAPE_JOB } from '../jobs/webhooks/job-kinds.js';
import type { WebhookPoster } from '../jobs/webhooks/post-webhook.js';
import { scrapeJobHandler } from '../jobs/webhooks/scrape-job.js';
import { createWebhookQueue, type WebhookQueue } from '../jobs/webhooks/webhook-queue.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type { Store } from '../store/db.js';
import type { JobQueue } from '../store/job-queue.js';

/** The settings delivery reads (config.ts documents each and its default). */
export type WebhookSettings = Pick<
  Config,
  | 'webhookBackoffMs'
  | 'jobLeaseMs'
  | 'jobPollMs'
  | 'jobRetentionMs'
  | 'webhookScrapeConcurrency'
  | 'webhookDeliveryConcurrency'
>;

export interface WebhookDeliveryOptions {
  store: Store;
  scraper: ScrapeUseCase;
  /** Unique per process: lease owners are `<nodeId>/<kind>`. */
  nodeId: string;
  settings: WebhookSettings;
  onError?: (error: unknown) => void;
  /** Told how each delivery attempt ended (the metrics). */
  onDeliveryAttempt?: (outcome: AttemptOutcome) => void;
  /** The service's one job queue. */
  jobs: JobQueue;
  /** The service's one webhook sender (over its one HTTP client). */
  post: WebhookPoster;
}

export interface WebhookDelivery {
  queue: WebhookQueue;
  jobs: JobQueue;
  start(): Promise<void>;
  /** Takes no new jobs; running ones get `graceMs`, then are handed back to the queue. */
  stop(graceMs: number): Promise<void>;
}

export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const { store, settings, onError } = options;
  const leaseMs = settings.jobLeaseMs;
  const { jobs, post } = options;
  const common = {
    queue: jobs,
    leaseMs,
    pollMs: settings.jobPollMs,
    ...(onError ? { onError } : {}),
  };
  const deliveries = new JobWorker({
    ...common,
    workerId: `${options.nodeId}/${DELIVERY_JOB}`,
    kinds: [DELIVERY_JOB],
    concurrency: settings.webhookDeliveryConcurrency,
    handler: deliveryJobHandler({
      db: store.db,
      jobs,
      post,
      backoffMs: settings.webhookBackoffMs,
      ...(options.onDeliveryAttempt ? { onAttempt: options.onDeliveryAttempt } : {}),
    }),
  });
  const scrapeWorkerId = `${options.nodeId}/${SCRAPE_JOB}`;
  const scrapes = new JobWorker({
    ...common,
    workerId: scrapeWorkerId,
    kinds: [SCRAPE_JOB],
    concurrency: settings.webhookScrapeConcurrency,
    handler: scrapeJobHandler({
      db: store.db,
      jobs,
      scraper: options.scraper,
      workerId: scrapeWorkerId,
      leaseMs,
      onDeliveryQueued: () => deliveries.wake(),
    }),
  });

  let purgeTimer: NodeJS.Timeout | null = null;
  return {
    jobs,
    queue: createWebhookQueue(
      store,
      jobs,
      () => scrapes.wake(),
      (plan) => options.scraper.refundLater(plan, false),
    ),
    async start() {
      // The embedded store has one server (DATA_DIR lock): leases left by a killed process
      // are dead for sure, so its jobs resume now rather than after the lease timeout.
      if (store.dialect === 'sqlite') await jobs.releaseAllLeases();
      scrapes.start();
      deliveries.start();
      // Ended jobs only explain the past (the request record keeps the state).
      const retention = settings.jobRetentionMs;
      purgeTimer = setInterval(() => {
        jobs.purgeFinished(Date.now() - retention).catch((error: unknown) => onError?.(error));
      }, 3600_000);
      purgeTimer.unref();
    },
    async stop(graceMs) {
      if (purgeTimer) clearInterval(purgeTimer);
      await Promise.all([scrapes.stop(graceMs), deliveries.stop(graceMs)]);
    },
  };
}
