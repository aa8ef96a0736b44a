/**
 * Runs jobs of some kinds from the leased queue: claims as many as it has free slots, keeps
 * their leases alive while handlers run, applies each handler's outcome, and on stop takes no
 * new jobs, lets running ones finish within the grace, then aborts the rest and gives their
 * leases back so another node (or the next start) runs them at once.
 */
import { isDatabaseUnavailable } from '../store/database-errors.js';
import type { ClaimedJob, JobQueue } from '../store/job-queue.js';

export type JobOutcome =
  | { type: 'done' }
  | { type: 'retry'; runAt: number; error: string }
  | { type: 'fail'; error: string }
  /** Not run after all (e.g. no capacity now): back to the queue, attempt not counted. */
  | { type: 'release'; runAt?: number }
  /**
   * The handler already completed or failed the job itself (`queue.within(trx)`, with the
   * job's `lockedBy`), in the same transaction as its own writes: nothing left to apply.
   */
  | { type: 'ended' };

/**
 * Handles one claimed job. The signal aborts when the worker stops past its grace or the
 * lease was lost; a handler that sees it should return promptly (its outcome is then not
 * applied: the job is released or already belongs to another worker).
 */
export type JobHandler = (job: ClaimedJob, signal: AbortSignal) => Promise<JobOutcome>;

export interface JobWorkerOptions {
  queue: JobQueue;
  /** Unique per process and worker: it is the lease owner. */
  workerId: string;
  kinds: readonly string[];
  handler: JobHandler;
  /** Jobs handled at once (WEBHOOK_SCRAPE_CONCURRENCY, WEBHOOK_DELIVERY_CONCURRENCY). */
  concurrency: number;
  /** JOB_LEASE_MS: lease length; renewed every third of it while a handler runs. */
  leaseMs: number;
  /** JOB_POLL_MS: idle poll interval (other nodes' jobs, retries coming due). */
  pollMs: number;
  /** Where unexpected errors go (a handler that threw, a database hiccup). */
  onError?: (error: unknown, job?: ClaimedJob) => void;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
  /** The handler has answered; only its outcome is being written. */
  answered: boolean;
}

/** A handler that throws instead of answering is retried this much later per attempt. */
const THROWN_RETRY_MS = 5_000;

/** A handler that met an unreachable database tries again this much later. */
const DATABASE_RETRY_MS = 2_000;
/** After the grace, how long aborted handlers get to return before their leases are freed anyway. */
const ABORT_SETTLE_MS = 2_000;

export class JobWorker {
  private readonly running = new Map<string, Running>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly claimBatch: number;
  private stopping = false;
  private claiming = false;
  private again = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: JobWorkerOptions) {
    this.concurrency = options.concurrency;
    this.leaseMs = options.leaseMs;
    this.pollMs = options.pollMs;
    this.claimBatch = Math.max(1, Math.floor(this.concurrency / 4));
  }

  start(): void {
    this.renewTimer = setInterval(() => this.renewLeases(), Math.max(50, this.leaseMs / 3));
    this.renewTimer.unref();
    this.wake();
  }

  /** Claim now (e.g. a job was just enqueued on this node) instead of at the next poll. */
  wake(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  inFlight(): number {
    return this.running.size;
  }

  private schedulePoll(): void {
    if (this.stopping) return;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.wake(), this.pollMs);
    this.pollTimer.unref();
  }

  private async pump(): Promise<void> {
    this.claiming = true;
    try {
      do {
        this.again = false;
        const free = this.concurrency - this.running.size;
        if (free <= 0 || this.stopping) break;
        const jobs = await this.options.queue.claim(
          this.options.workerId,
          this.options.kinds,
          free,
          this.leaseMs,
        );
        for (const job of jobs) this.launch(job);
        // A full batch means more may be waiting.
        if (jobs.length === free) this.again = true;
      } while (this.again && !this.stopping);
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      this.claiming = false;
      this.schedulePoll();
    }
  }

  private launch(job: ClaimedJob): void {
    // Our own lease ran out while the handler still runs (a stalled event loop) and we took
    // the job again: the running handler goes on under the renewed lease. A handler that has
    // answered is another matter: its release (or retry) committed and a claim took the job
    // again before the entry was gone; dropping that claim left the job locked by us, run by
    // nobody and never renewed, until its lease ran out (a crawl lane after a 429 waited
    // JOB_LEASE_MS).
    if (this.running.get(job.id)?.answered === false) return;
    const controller = new AbortController();
    const entry: Running = { job, controller, done: Promise.resolve(), answered: false };
    entry.done = this.execute(job, controller.signal, entry)
      .catch((error: unknown) => this.options.onError?.(error, job))
      .finally(() => {
        if (this.running.get(job.id) === entry) this.running.delete(job.id);
        // Claim in batches: one query per quarter of the slots rather than per finished job.
        const free = this.concurrency - this.running.size;
        if (free >= this.claimBatch || this.running.size === 0) this.wake();
      });
    this.running.set(job.id, entry);
  }

  private async execute(job: ClaimedJob, signal: AbortSignal, entry: Running): Promise<void> {
    const { queue, workerId } = this.options;
    let outcome: JobOutcome;
    try {
      outcome = await this.options.handler(job, signal);
    } catch (error) {
      this.options.onError?.(error, job);
      const message = error instanceof Error ? error.message : String(error);
      // An unreachable database is nobody's failure: the job waits for it without using up an
      // attempt, so an outage longer than its retries loses no work (issue 24, point 11).
      outcome = isDatabaseUnavailable(error)
        ? { type: 'release', runAt: Date.now() + DATABASE_RETRY_MS }
        : job.attempts >= job.maxAttempts
          ? { type: 'fail', error: message }
          : { type: 'retry', runAt: Date.now() + THROWN_RETRY_MS * job.attempts, error: message };
    }
    entry.answered = true;
    if (signal.aborted) {
      // Stopped past the grace: hand the job back. Lease lost: it is someone else's now.
      if (this.stopping) await queue.release(job.id, workerId);
      return;
    }
    switch (outcome.type) {
      case 'done':
        await queue.complete(job.id, workerId);
        return;
      case 'retry':
        await queue.retry(job.id, workerId, outcome.runAt, outcome.error);
        return;
      case 'fail':
        await queue.fail(job.id, workerId, outcome.error);
        return;
      case 'release':
        await queue.release(job.id, workerId, outcome.runAt);
        return;
      case 'ended':
        return;
    }
  }

  private renewLeases(): void {
    const { queue, workerId } = this.options;
    for (const { job, controller } of this.running.values()) {
      if (controller.signal.aborted) continue;
      queue.extendLease(job.id, workerId, this.leaseMs).then(
        (held) => {
          if (!held) controller.abort(new Error('job lease lost'));
        },
        (error: unknown) => this.options.onError?.(error, job),
      );
    }
  }

  /**
   * Takes no new jobs, waits up to `graceMs` for running ones, then aborts the rest and
   * releases their leases. Resolves when no handler of this worker is left running.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    await waitAtMost(all(), graceMs);
    for (const { controller } of this.running.values()) {
      controller.abort(new Error('service shutting down'));
    }
    await waitAtMost(all(), ABORT_SETTLE_MS);
    if (this.renewTimer) clearInterval(this.renewTimer);
  }
}

async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}
