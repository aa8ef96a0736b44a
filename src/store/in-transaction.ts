/**
 * The one way into a transaction outside the commit group (Store.transact): every module
 * that needs several statements to commit together calls `inTransaction`, so how a
 * transaction is opened (and joined) is decided here only.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Runs a unit of work in a transaction (the store's transact, or `inTransaction`). */
export type RunInTransaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

/** Runs `work` in the caller's transaction if there is one, else in a new one. */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  // A Kysely that is a transaction is a Transaction (Kysely's isTransaction says so).
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}
