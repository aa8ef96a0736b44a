/**
 * The Firecrawl door's extracts (/v1/extract, /v2/extract), built by the composition root:
 * the service the routes call, the worker that runs extract jobs, and the hourly purge of
 * extracts past their expiry.
 */

import {
  createExtractService,
  EXTRACT_JOB,
  type ExtractDeps,
  type ExtractService,
  extractJobHandler,
} from '../jobs/extracts/extract-service.js';
import { JobWorker } from '../jobs/job-worker.js';
import type { MapService } from '../map/map-service.js';
import type { ModelCalls } from '../models/model-calls.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type { Store } from '../store/db.js';
import { dropExtractPages } from '../store/extract-pages.js';
import { purgeExtracts } from '../store/extracts.js';
import { JobQueue } from '../store/job-queue.js';

export interface ExtractJobsOptions {
  store: Store;
  scraper: ScrapeUseCase;
  map: Pick<MapService, 'mapDeferred'>;
  models: ModelCalls | null;
  /** EXTRACT_MAX_PAGES (with a model); extracts without one are refused anyway. */
  maxPages: number;
  nodeId: string;
  settings: { jobLeaseMs: number; jobPollMs: number; batchScrapeConcurrency: number };
  onError?: (error: unknown) => void;
}

export interface ExtractJobs {
  service: ExtractService;
  start(): void;
  stop(graceMs: number): Promise<void>;
}

const PURGE_INTERVAL_MS = 3600_000;

export function createExtractJobs(options: ExtractJobsOptions): ExtractJobs {
  const { store, settings, onError } = options;
  const queue = new JobQueue(store.db, store.dialect);
  const deps: ExtractDeps = {
    store,
    queue,
    scraper: options.scraper,
    map: options.map,
    models: options.models,
    maxPages: options.maxPages,
    wake: () => worker.wake(),
  };
  const worker: JobWorker = new JobWorker({
    queue,
    workerId: `${options.nodeId}/${EXTRACT_JOB}`,
    kinds: [EXTRACT_JOB],
    // An extract runs its pages one after another: as many extracts as batch pages at once.
    concurrency: settings.batchScrapeConcurrency,
    handler: extractJobHandler(deps),
    leaseMs: settings.jobLeaseMs,
    pollMs: settings.jobPollMs,
    ...(onError ? { onError } : {}),
  });
  let purgeTimer: NodeJS.Timeout | null = null;
  return {
    service: createExtractService(deps),
    start() {
      worker.start();
      purgeTimer = setInterval(() => {
        purgeExtracts(store.db)
          .then(() => dropExtractPages(store.db))
          .catch((error: unknown) => onError?.(error));
      }, PURGE_INTERVAL_MS);
      purgeTimer.unref();
    },
    async stop(graceMs) {
      if (purgeTimer) clearInterval(purgeTimer);
      await worker.stop(graceMs);
    },
  };
}
