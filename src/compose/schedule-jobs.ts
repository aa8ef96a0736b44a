/**
 * Scheduled workflows (issue 18), built by the composition root: the service the schedule
 * routes call, the scheduler that turns due schedules into jobs, and the worker that runs
 * them over the shared job table.
 */
import type { Config } from '../config.js';
import { JobWorker } from '../jobs/job-worker.js';
import { CronCache } from '../jobs/schedules/cron-schedule.js';
import { RUN_JOB } from '../jobs/schedules/job-kinds.js';
import { scheduleRunHandler } from '../jobs/schedules/run-job.js';
import { ScheduleService } from '../jobs/schedules/schedule-service.js';
import { Scheduler } from '../jobs/schedules/scheduler.js';
import type { WebhookQueue } from '../jobs/webhooks/webhook-queue.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type { Store } from '../store/db.js';
import type { JobQueue } from '../store/job-queue.js';

/** The settings schedules read (config.ts documents each and its default). */
export type ScheduleSettings = Pick<
  Config,
  | 'jobLeaseMs'
  | 'jobPollMs'
  | 'scheduleMinIntervalMs'
  | 'scheduleAllowSeconds'
  | 'scheduleDisableAfterFailures'
  | 'schedulePollMs'
  | 'scheduleMisfireMs'
  | 'scheduleRunConcurrency'
>;

export interface ScheduleJobsOptions {
  store: Store;
  scraper: ScrapeUseCase;
  webhooks: WebhookQueue;
  /** The service's one job queue. */
  jobs: JobQueue;
  /** Unique per process: the run worker's lease owner is `<nodeId>/schedule-run`. */
  nodeId: string;
  settings: ScheduleSettings;
  onError?: (error: unknown) => void;
}

export interface ScheduleJobs {
  service: ScheduleService;
  scheduler: Scheduler;
  start(): void;
  /** Enqueues nothing more; running runs get `graceMs`, then are handed back to the queue. */
  stop(graceMs: number): Promise<void>;
}

export function createScheduleJobs(options: ScheduleJobsOptions): ScheduleJobs {
  const { store, settings, onError } = options;
  const { jobs } = options;
  const crons = new CronCache();
  const workerId = `${options.nodeId}/${RUN_JOB}`;
  const runs = new JobWorker({
    queue: jobs,
    workerId,
    kinds: [RUN_JOB],
    concurrency: settings.scheduleRunConcurrency,
    leaseMs: settings.jobLeaseMs,
    pollMs: settings.jobPollMs,
    ...(onError ? { onError } : {}),
    handler: scheduleRunHandler({
      store,
      jobs,
      scraper: options.scraper,
      webhooks: options.webhooks,
      workerId,
      leaseMs: settings.jobLeaseMs,
      disableAfter: settings.scheduleDisableAfterFailures,
    }),
  });
  const scheduler = new Scheduler({
    store,
    jobs,
    crons,
    pollMs: settings.schedulePollMs,
    misfireMs: settings.scheduleMisfireMs,
    onEnqueued: () => runs.wake(),
    ...(onError ? { onError } : {}),
  });
  const service = new ScheduleService(store, {
    rules: {
      minIntervalMs: settings.scheduleMinIntervalMs,
      allowSeconds: settings.scheduleAllowSeconds,
    },
    crons,
    onChange: () => scheduler.wake(),
  });
  return {
    service,
    scheduler,
    start() {
      runs.start();
      scheduler.start();
    },
    async stop(graceMs) {
      await scheduler.stop();
      await runs.stop(graceMs);
    },
  };
}
