/**
 * Webhook delivery (contract 21–23), built by the composition root: the queue the scraper
 * route hands prepared scrapes to, and two workers over the shared job table, one running
 * scrapes, one making delivery attempts.
 */
import type { Dispatcher } from 'undici';
import type { WebhookQueue } from '../api/native/scraper.get.js';
import { refundCredits } from '../billing/credit-ledger.js';
import { JobWorker } from '../jobs/job-worker.js';
import { type AttemptOutcome, deliveryJobHandler } from '../jobs/webhooks/delivery-job.js';
import {
  DELIVERY_JOB,
  SCRAPE_JOB,
  SCRAPE_MAX_ATTEMPTS,
  scrapeJobId,
} from '../jobs/webhooks/job-kinds.js';
import { createWebhookPoster } from '../jobs/webhooks/post-webhook.js';
import { scrapeJobHandler } from '../jobs/webhooks/scrape-job.js';
import { createDispatchers } from '../scrape/engines/fetch/dispatchers.js';
import { type PreparedScrape, runRecordOf, type ScrapeService } from '../scrape/scrape-service.js';
import type { Store } from '../store/db.js';
import { JobQueue } from '../store/job-queue.js';
import { type RunRecord, saveRunRecord } from '../store/run-records.js';

export interface WebhookDeliveryOptions {
  store: Store;
  scraper: ScrapeService;
  /** Unique per process: lease owners are `<nodeId>/<kind>`. */
  nodeId: string;
  /** ALLOW_PRIVATE_NETWORKS: webhook addresses may be non-public. */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_BACKOFF_MS: base of the retry backoff. Default 30000 (8 attempts ≈ 1 h). */
  backoffMs?: number;
  /** WEBHOOK_TIMEOUT_MS: per-attempt timeout. Default 10000. */
  timeoutMs?: number;
  /** JOB_LEASE_MS: how long a dead process's job stays locked. Default 60000. */
  leaseMs?: number;
  /** WEBHOOK_SCRAPE_CONCURRENCY: webhook scrapes run at once on this node. Default 8. */
  scrapeConcurrency?: number;
  /** WEBHOOK_DELIVERY_CONCURRENCY: delivery attempts in flight on this node. Default 32. */
  deliveryConcurrency?: number;
  /** JOB_POLL_MS: how often idle workers look for due jobs. Default 500. */
  pollMs?: number;
  /** JOB_RETENTION_MS: ended jobs older than this are deleted (hourly). Default 7 days. */
  jobRetentionMs?: number;
  onError?: (error: unknown) => void;
  /** Told how each delivery attempt ended (the metrics). */
  onDeliveryAttempt?: (outcome: AttemptOutcome) => void;
}

export interface WebhookDelivery {
  queue: WebhookQueue;
  jobs: JobQueue;
  start(): Promise<void>;
  /** Takes no new jobs; running ones get `graceMs`, then are handed back to the queue. */
  stop(graceMs: number): Promise<void>;
}

/** The request record as it stands while the scrape waits in the queue (contract 32). */
function pendingRecord(prepared: PreparedScrape): RunRecord {
  return runRecordOf(prepared, {
    status: 'pending',
    statusCode: null,
    targetStatus: null,
    credits: 0,
    durationMs: null,
    error: null,
  });
}

export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const { store } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const jobs = new JobQueue(store.db, store.dialect);
  const guard = { allowPrivate: options.allowPrivateNetworks };
  const dispatchers = createDispatchers(guard, 16);
  const dispatcher: Dispatcher = dispatchers.get(null);
  const post = createWebhookPoster({
    guard,
    dispatcher,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const onError = options.onError;
  const common = { queue: jobs, leaseMs, ...(options.pollMs ? { pollMs: options.pollMs } : {}) };
  const deliveries = new JobWorker({
    ...common,
    workerId: `${options.nodeId}/${DELIVERY_JOB}`,
    kinds: [DELIVERY_JOB],
    concurrency: options.deliveryConcurrency ?? 32,
    handler: deliveryJobHandler({
      db: store.db,
      jobs,
      post,
      ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
      ...(options.onDeliveryAttempt ? { onAttempt: options.onDeliveryAttempt } : {}),
    }),
    ...(onError ? { onError } : {}),
  });
  const scrapeWorkerId = `${options.nodeId}/${SCRAPE_JOB}`;
  const scrapes = new JobWorker({
    ...common,
    workerId: scrapeWorkerId,
    kinds: [SCRAPE_JOB],
    concurrency: options.scrapeConcurrency ?? 8,
    handler: scrapeJobHandler({
      db: store.db,
      jobs,
      scraper: options.scraper,
      workerId: scrapeWorkerId,
      leaseMs,
      onDeliveryQueued: () => deliveries.wake(),
    }),
    ...(onError ? { onError } : {}),
  });

  let purgeTimer: NodeJS.Timeout | null = null;
  return {
    jobs,
    queue: {
      async enqueue(prepared) {
        // The pending record and the job commit together: the caller's "ok" means both exist.
        try {
          await store.db.transaction().execute(async (trx) => {
            await saveRunRecord(trx, pendingRecord(prepared));
            await jobs.within(trx).enqueue(SCRAPE_JOB, prepared, {
              id: scrapeJobId(prepared.requestId),
              maxAttempts: SCRAPE_MAX_ATTEMPTS,
            });
          });
        } catch (error) {
          // Nothing will run: give the reservation back before the caller sees the 500.
          await refundCredits(store.db, prepared.accountId, prepared.price, prepared.requestId);
          throw error;
        }
        scrapes.wake();
      },
    },
    async start() {
      // The embedded store has one server (DATA_DIR lock): leases left by a killed process
      // are dead for sure, so its jobs resume now rather than after the lease timeout.
      if (store.dialect === 'sqlite') await jobs.releaseAllLeases();
      scrapes.start();
      deliveries.start();
      // Ended jobs only explain the past (the request record keeps the state): keep a week.
      const retention = options.jobRetentionMs ?? 7 * 24 * 3600_000;
      purgeTimer = setInterval(() => {
        jobs.purgeFinished(Date.now() - retention).catch((error: unknown) => onError?.(error));
      }, 3600_000);
      purgeTimer.unref();
    },
    async stop(graceMs) {
      if (purgeTimer) clearInterval(purgeTimer);
      await Promise.all([scrapes.stop(graceMs), deliveries.stop(graceMs)]);
      await dispatchers.close();
    },
  };
}
