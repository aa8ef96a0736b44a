/**
 * Group commit for the embedded engine. With `synchronous=FULL` every commit is an fsync
 * (0.3–2 ms on this disk), taken on the event loop because better-sqlite3 is synchronous,
 * and each scrape writes twice. Units submitted in one turn of the event loop, or while a
 * batch is being written, share one transaction and one commit; alone, a unit commits in
 * the next turn as before.
 *
 * A unit that need not survive a power loss (a credit reservation: until its scrape settles
 * nobody has seen its effect, and the reaper refunds reservations that never end) says so,
 * and a batch of such units commits with `synchronous=NORMAL`: no fsync. The next durable
 * commit flushes the write-ahead log up to itself, so it makes earlier relaxed ones durable.
 *
 * A unit must only touch the database through the transaction it is given (no other I/O):
 * if any unit of a batch fails, the batch rolls back and its units run again one by one, so
 * each still commits or fails on its own.
 */
import { type Kysely, sql } from 'kysely';
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

/** Units per transaction: bounds how long one batch holds the writer. */
const MAX_BATCH = 64;

export class CommitGroup {
  private pending: Unit[] = [];
  private draining = false;

  /** `db`'s connection runs with `synchronous=FULL` (db.ts); relaxed batches restore it. */
  constructor(private readonly db: Kysely<Database>) {}

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
    const durable = batch.some((unit) => unit.durable);
    let results: unknown[];
    try {
      results = await this.transaction(durable, async (trx) => {
        const out: unknown[] = [];
        for (const unit of batch) out.push(await unit.work(trx));
        return out;
      });
    } catch {
      // One unit (or the commit) failed: each runs again alone and answers for itself.
      for (const unit of batch) await this.alone(unit);
      return;
    }
    for (const [index, unit] of batch.entries()) unit.resolve(results[index]);
  }

  private async alone(unit: Unit): Promise<void> {
    try {
      unit.resolve(await this.transaction(unit.durable, unit.work));
    } catch (error) {
      unit.reject(error);
    }
  }

  private transaction<T>(durable: boolean, work: TransactionWork<T>): Promise<T> {
    if (durable) return this.db.transaction().execute(work);
    // One connection throughout, so no other statement runs while the setting is relaxed.
    return this.db.connection().execute(async (connection) => {
      await sql`PRAGMA synchronous = NORMAL`.execute(connection);
      try {
        return await connection.transaction().execute(work);
      } finally {
        await sql`PRAGMA synchronous = FULL`.execute(connection);
      }
    });
  }
}
