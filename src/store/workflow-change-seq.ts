/**
 * The change number of an account's workflows (`accounts.workflow_seq`, migration 005). Both
 * workflow edits and run records (a run updates its workflow's lastRun and creditsSpent)
 * stamp the row they change with it, so it lives with storage rather than with workflows.
 */
import type { Kysely, Transaction } from 'kysely';
import { preparedQuery } from './prepared-query.js';
import type { Database } from './schema.js';

const bumpChangeSeq = preparedQuery((db, accountId: string) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ workflow_seq: eb('workflow_seq', '+', 1) }))
    .where('id', '=', accountId)
    .returning('workflow_seq'),
);

/**
 * The next change number of the account's workflows, for the row the same transaction
 * changes (workflows/list-cache.ts). Call it before touching any workflow row: on
 * PostgreSQL the account row's lock then orders these transactions, so numbers commit in
 * order, and every transaction takes the account before the workflow (as a run's settlement
 * does), which cannot deadlock.
 */
export async function nextChangeSeq(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
): Promise<number> {
  const { rows } = await db.executeQuery(bumpChangeSeq(db, accountId));
  const row = rows[0];
  if (!row) throw new Error(`no account ${accountId}`);
  return Number(row.workflow_seq);
}
