import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Runs `work` in the caller's transaction if there is one, else in a new one. */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database> | Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
