/**
 * The credit ledger primitive. The balance is `accounts.credits`; every movement is also a
 * ledger row that explains it. Reserve is one conditional UPDATE, so it is atomic on both
 * engines, under any concurrency and across processes sharing one PostgreSQL: the balance can
 * never go below zero (a CHECK constraint guards it as well).
 */
import type { Kysely } from 'kysely';
import { inTransaction } from '../store/in-transaction.js';
import type { Database, LedgerKind } from '../store/schema.js';

async function record(
  db: Kysely<Database>,
  accountId: string,
  requestId: string | null,
  kind: LedgerKind,
  amount: number,
  balanceAfter: number,
): Promise<void> {
  await db
    .insertInto('ledger')
    .values({
      account_id: accountId,
      request_id: requestId,
      kind,
      amount,
      balance_after: balanceAfter,
      created_at: Date.now(),
    })
    .execute();
}

/** Takes `amount` credits if the balance allows; returns the balance after, or null if short. */
export async function reserveCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('accounts')
      .set((eb) => ({ credits: eb('credits', '-', amount) }))
      .where('id', '=', accountId)
      .where('credits', '>=', amount)
      .returning('credits')
      .executeTakeFirst();
    if (!row) return null;
    const balance = Number(row.credits);
    await record(trx, accountId, requestId, 'reserve', -amount, balance);
    return balance;
  });
}

/**
 * Confirms a reservation as spent. The balance already moved at reserve time; this records
 * the charge. Pass a transaction to settle together with a workflow's run record.
 */
export async function settleCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const balance = Number(row.credits);
  await record(db, accountId, requestId, 'settle', amount, balance);
  return balance;
}

/** Returns a reservation that will not be charged; returns the balance after. */
export async function refundCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('accounts')
      .set((eb) => ({ credits: eb('credits', '+', amount) }))
      .where('id', '=', accountId)
      .returning('credits')
      .executeTakeFirstOrThrow();
    const balance = Number(row.credits);
    await record(trx, accountId, requestId, 'refund', amount, balance);
    return balance;
  });
}

/** Operator grant (or removal, with a negative delta that may not take the balance below 0). */
export async function grantCredits(
  db: Kysely<Database>,
  accountId: string,
  delta: number,
): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('accounts')
      .set((eb) => ({ credits: eb('credits', '+', delta) }))
      .where('id', '=', accountId)
      .where('credits', '>=', Math.max(0, -delta))
      .returning('credits')
      .executeTakeFirst();
    if (!row) return null;
    const balance = Number(row.credits);
    await record(trx, accountId, null, 'grant', delta, balance);
    return balance;
  });
}
