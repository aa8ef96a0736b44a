/**
 * Group commit for the embedded engine. With `synchronous=FULL` every commit is an fsync
 * (0.3–1.4 ms on this disk), taken on the event loop because better-sqlite3 is synchronous,
 * and each scrape needs two. Units submitted while a batch is being written join the next
 * batch, which commits once for all of them: under concurrency the fsyncs are shared, alone
 * a unit commits at once as before.
 *
 * A unit must only touch the database through the transaction it is given (no other I/O):
 * if any unit of a batch fails, the batch rolls back and its units run again one by one, so
 * each still commits or fails on its own.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type TransactionWork<T> = (trx: Kysely<Database>) => Promise<T>;

interface Unit {
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Units per transaction: bounds how long one batch holds the writer. */
const MAX_BATCH = 64;

export class CommitGroup {
  private pending: Unit[] = [];
  private draining = false;

  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: TransactionWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
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
    const results: unknown[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const unit of batch) results.push(await unit.work(trx));
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
      unit.resolve(await this.db.transaction().execute(unit.work));
    } catch (error) {
      unit.reject(error);
    }
  }
}
