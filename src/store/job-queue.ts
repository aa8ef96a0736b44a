/**
 * A leased job queue in the service's own database, so jobs survive restarts and several
 * nodes sharing one PostgreSQL share the work.
 *
 * A job is `queued` until it ends `done` or `failed`. A worker claims due jobs by writing its
 * id and a lease deadline (`locked_by`, `locked_until`) and counting the attempt; it then
 * completes, retries (later), fails or releases the job, each only while it still holds the
 * lease. A worker that dies simply stops extending its lease: once `locked_until` passes, any
 * worker claims the job again. Delivery is therefore at least once; handlers make their side
 * effects idempotent.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from './dialect.js';
import { newId } from './ids.js';
import type { Database, JobsTable } from './schema.js';

export type JobState = 'queued' | 'done' | 'failed';

export interface EnqueueOptions {
  /** Epoch ms before which the job is not claimed. Default: now. */
  runAt?: number;
  /** Claims allowed before the handler must give up (the claim that exceeds it sees so). */
  maxAttempts: number;
  /** A deterministic id makes enqueueing idempotent: a second enqueue with it does nothing. */
  id?: string;
}

export interface ClaimedJob<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /** Claims so far, this one included (1 on the first run). */
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lockedBy: string;
  lockedUntil: number;
  lastError: string | null;
  createdAt: number;
}

export interface JobView {
  id: string;
  kind: string;
  state: JobState;
  attempts: number;
  runAt: number;
  lockedBy: string | null;
  lastError: string | null;
}

/** Longest error text kept on a job row. */
const MAX_ERROR_CHARS = 2000;

function clip(error: string): string {
  return error.length > MAX_ERROR_CHARS ? `${error.slice(0, MAX_ERROR_CHARS)}…` : error;
}

function toClaimed(row: JobsTable): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: Number(row.run_at),
    lockedBy: row.locked_by ?? '',
    lockedUntil: Number(row.locked_until),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
  };
}

/** Runs a unit of writes in a transaction that needs no fsync of its own. */
export type RelaxedWrites = <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

export class JobQueue {
  /**
   * @param db the store, or a transaction to enqueue together with other writes
   * @param clock epoch-ms clock. Default `Date.now` (tests move time instead of sleeping).
   */
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    private readonly clock: () => number = Date.now,
    /**
     * Where claims and releases commit, when not on `db` (the store's relaxed units: no
     * fsync of their own). A claim or release lost with the machine's power only leaves the
     * job to be claimed again; a process killed loses neither.
     */
    private readonly relaxed: RelaxedWrites | null = null,
  ) {}

  /** The same queue writing through `trx`, so a job is stored atomically with other rows. */
  within(trx: Kysely<Database>): JobQueue {
    return new JobQueue(trx, this.dialect, this.clock);
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions): Promise<string> {
    const id = options.id ?? newId();
    const now = this.clock();
    await this.db
      .insertInto('jobs')
      .values({
        id,
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        run_at: options.runAt ?? now,
        attempts: 0,
        max_attempts: options.maxAttempts,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return id;
  }

  /**
   * Enqueues many jobs of one kind in one statement, each with its own deterministic id
   * (a job whose id exists already is left as it is). For the scheduler's batches.
   */
  async enqueueMany(
    kind: string,
    jobs: readonly { id: string; payload: unknown; runAt: number }[],
    maxAttempts: number,
  ): Promise<void> {
    if (jobs.length === 0) return;
    const now = this.clock();
    await this.db
      .insertInto('jobs')
      .values(
        jobs.map((job) => ({
          id: job.id,
          kind,
          payload: JSON.stringify(job.payload),
          state: 'queued',
          run_at: job.runAt,
          attempts: 0,
          max_attempts: maxAttempts,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /**
   * Leases up to `limit` due jobs of these kinds to `workerId` for `leaseMs`, oldest due
   * first, counting one attempt each. Due: queued, `run_at` passed, and not leased (or the
   * lease expired). One statement either way: on SQLite the UPDATE ... WHERE id IN (SELECT
   * ... LIMIT n) is atomic by itself (the database has one writer at a time); on PostgreSQL
   * the inner SELECT takes row locks with SKIP LOCKED, so concurrent claimers on any number
   * of nodes never take the same job and never wait for each other.
   */
  async claim(
    workerId: string,
    kinds: readonly string[],
    limit: number,
    leaseMs: number,
  ): Promise<ClaimedJob[]> {
    if (limit <= 0 || kinds.length === 0) return [];
    if (this.relaxed) {
      return this.relaxed((trx) => this.within(trx).claim(workerId, kinds, limit, leaseMs));
    }
    const now = this.clock();
    const rows = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        locked_by: workerId,
        locked_until: now + leaseMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', (eb) => {
        const due = eb
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'queued')
          .where('kind', 'in', [...kinds])
          .where('run_at', '<=', now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', now)]))
          .orderBy('run_at')
          .limit(limit);
        return this.dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returningAll()
      .execute();
    return rows.map(toClaimed).sort((a, b) => a.runAt - b.runAt);
  }

  /** Conditions for "this worker still holds the job". */
  private held(id: string, workerId: string) {
    return this.db
      .updateTable('jobs')
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'queued');
  }

  private async applied(query: ReturnType<JobQueue['held']>): Promise<boolean> {
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends the job as done. False when the lease was lost to another worker. */
  complete(id: string, workerId: string): Promise<boolean> {
    return this.applied(
      this.held(id, workerId).set({ state: 'done', locked_by: null, locked_until: null }),
    );
  }

  /** Gives the job back to run again at `runAt`; the attempt stays counted. */
  retry(id: string, workerId: string, runAt: number, error: string): Promise<boolean> {
    return this.applied(
      this.held(id, workerId).set({
        run_at: runAt,
        locked_by: null,
        locked_until: null,
        last_error: clip(error),
      }),
    );
  }

  /** Ends the job as failed for good. */
  fail(id: string, workerId: string, error: string): Promise<boolean> {
    return this.applied(
      this.held(id, workerId).set({
        state: 'failed',
        locked_by: null,
        locked_until: null,
        last_error: clip(error),
      }),
    );
  }

  /**
   * Gives the job back without counting the attempt (shutdown, or the work could not start:
   * e.g. the account is at its concurrency limit). Runs again at `runAt`, default now.
   */
  release(id: string, workerId: string, runAt?: number): Promise<boolean> {
    if (this.relaxed) {
      return this.relaxed((trx) => this.within(trx).release(id, workerId, runAt));
    }
    return this.applied(
      this.held(id, workerId).set((eb) => ({
        run_at: runAt ?? this.clock(),
        locked_by: null,
        locked_until: null,
        // A held job was claimed, so attempts >= 1 here.
        attempts: eb('attempts', '-', 1),
      })),
    );
  }

  /** Pushes the lease deadline to now + leaseMs. False when the lease was lost. */
  extendLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    return this.applied(this.held(id, workerId).set({ locked_until: this.clock() + leaseMs }));
  }

  /**
   * Frees every lease at once. Only for a single-node store at start-up (the embedded
   * database's DATA_DIR lock proves no other server holds a lease): jobs of a crashed
   * process then resume at once instead of after the lease timeout. Returns the count.
   */
  async releaseAllLeases(): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_by: null, locked_until: null })
      .where('state', '=', 'queued')
      .where('locked_by', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes jobs that ended (done or failed) before `before` (epoch ms); returns the count. */
  async purgeFinished(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('jobs')
      .where('state', 'in', ['done', 'failed'])
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async get(id: string): Promise<JobView | null> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      state: row.state as JobState,
      attempts: Number(row.attempts),
      runAt: Number(row.run_at),
      lockedBy: row.locked_by,
      lastError: row.last_error,
    };
  }

  /** Queued jobs of a kind (due or not, leased or not): for metrics and tests. */
  async countQueued(kind?: string): Promise<number> {
    let query = this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'queued');
    if (kind) query = query.where('kind', '=', kind);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
