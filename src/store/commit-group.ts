/**
 * Group commit for the embedded engine. Units submitted in one turn of the event loop, or
 * while a batch is being written, share one transaction and one commit; alone, a unit
 * commits in the next turn.
 *
 * Every batch commits with `synchronous=NORMAL`: SQLite writes the write-ahead log without
 * syncing it, so the commit never waits for the disk on the event loop (better-sqlite3 is
 * synchronous, and an fsync took 0.3-2 ms there, much more on a busy disk: issue 26). A batch
 * with a durable unit then has the log synced off the thread (`flush`, the libuv pool), and
 * its units answer only after a sync that began after their commit: what SQLite's FULL does,
 * while the next batches commit. Syncs are shared: commits made while one runs wait for the
 * next one only. A unit that need not survive a power loss (a credit reservation: until its
 * scrape settles nobody has seen its effect, and the reaper refunds reservations that never
 * end) says so and answers at its commit; the log is append-only, so the next sync makes it
 * durable too.
 *
 * A unit must only touch the database through the transaction it is given (no other I/O):
 * if any unit of a batch fails, the batch rolls back and its units run again one by one, so
 * each still commits or fails on its own.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { inTransaction } from './in-transaction.js';
import type { Database } from './schema.js';

export type TransactionWork<T> = (trx: Kysely<Database>) => Promise<T>;

export interface UnitOptions {
  /** Whether the commit must survive a power loss (fsync). Default true. */
  durable?: boolean;
}

interface Unit {
  work: TransactionWork<unknown>;
  durable: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Compiled once: a batch ran Kysely's template compiler twice for two fixed texts. */
const RELAXED = CompiledQuery.raw('PRAGMA synchronous = NORMAL');
const FULL = CompiledQuery.raw('PRAGMA synchronous = FULL');

/** Units per transaction: bounds how long one batch holds the writer. */
const MAX_BATCH = 64;

/** Syncs the write-ahead log to disk: everything committed before it began is then durable. */
export type FlushLog = () => Promise<void>;

/**
 * Shares syncs between commits: a flush asked for while one is under way waits for the next
 * one (the running one may have begun before the caller's commit), which all such callers share.
 */
export class SharedFlush {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly flushLog: FlushLog) {}

  flush(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => {})
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const running = this.flushLog().finally(() => {
      if (this.running === running) this.running = null;
    });
    this.running = running;
    return running;
  }
}

export class CommitGroup {
  private pending: Unit[] = [];
  private draining = false;
  private readonly syncs: SharedFlush;

  /**
   * `db`'s connection runs with `synchronous=FULL` (db.ts) for every other writer; batches
   * relax it for their commit and restore it. `flushLog` syncs the write-ahead log.
   */
  constructor(
    private readonly db: Kysely<Database>,
    flushLog: FlushLog,
  ) {
    this.syncs = new SharedFlush(flushLog);
  }

  run<T>(work: TransactionWork<T>, options: UnitOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        work,
        durable: options.durable ?? true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.draining) {
        this.draining = true;
        // After this turn's I/O callbacks: every unit they submit joins the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_BATCH);
        if (batch.length === 1) await this.alone(batch[0] as Unit);
        else await this.together(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async together(batch: Unit[]): Promise<void> {
    let results: unknown[];
    try {
      results = await this.transaction(async (trx) => {
        const out: unknown[] = [];
        for (const unit of batch) out.push(await unit.work(trx));
        return out;
      });
    } catch {
      // One unit (or the commit) failed: each runs again alone and answers for itself.
      for (const unit of batch) await this.alone(unit);
      return;
    }
    this.answer(batch, results);
  }

  private async alone(unit: Unit): Promise<void> {
    try {
      this.answer([unit], [await this.transaction(unit.work)]);
    } catch (error) {
      unit.reject(error);
    }
  }

  /** Committed: relaxed units answer now, durable ones once the log is synced (not awaited). */
  private answer(batch: Unit[], results: unknown[]): void {
    const durable: [Unit, unknown][] = [];
    for (const [index, unit] of batch.entries()) {
      if (unit.durable) durable.push([unit, results[index]]);
      else unit.resolve(results[index]);
    }
    if (durable.length === 0) return;
    this.syncs.flush().then(
      () => {
        for (const [unit, result] of durable) unit.resolve(result);
      },
      (error: unknown) => {
        for (const [unit] of durable) unit.reject(error);
      },
    );
  }

  private transaction<T>(work: TransactionWork<T>): Promise<T> {
    // One connection throughout, so no other statement runs while the setting is relaxed.
    return this.db.connection().execute(async (connection) => {
      await connection.executeQuery(RELAXED);
      try {
        return await inTransaction(connection, work);
      } finally {
        await connection.executeQuery(FULL);
      }
    });
  }
}
