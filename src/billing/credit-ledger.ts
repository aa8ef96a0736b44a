/**
 * The credit ledger primitive. The balance is `accounts.credits`; every movement is also a
 * ledger row that explains it. Reserve is one conditional UPDATE, so it is atomic on both
 * engines, under any concurrency and across processes sharing one PostgreSQL: the balance can
 * never go below zero (a CHECK constraint guards it as well).
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { type AppError, appError } from '../errors.js';
import type { Store } from '../store/db.js';
import { inTransaction } from '../store/in-transaction.js';
import { preparedQuery } from '../store/prepared-query.js';
import type { Database, LedgerKind } from '../store/schema.js';

// Every scrape runs these: built once per dialect (see prepared-query.ts).
const insertEntry = preparedQuery(
  (
    db,
    accountId: string,
    requestId: string | null,
    kind: LedgerKind,
    amount: number,
    balanceAfter: number,
    createdAt: number,
    holder: string | null,
    deadlineAt: number | null,
  ) =>
    db.insertInto('ledger').values({
      account_id: accountId,
      request_id: requestId,
      kind,
      amount,
      balance_after: balanceAfter,
      created_at: createdAt,
      holder,
      deadline_at: deadlineAt,
    }),
);

/**
 * How long after its own budget a held reservation may still be settled by its node (the
 * settle's transaction on a slow or briefly restarting database) before it counts as dead.
 */
export const SETTLE_GRACE_MS = 60_000;

/**
 * Who ends a reservation, and by when it is dead if still open (the reaper, a restart of its
 * node). Without one, a job ends it (batch and crawl pages) and only the old 10-minute rule applies.
 */
export interface ReservationHold {
  /** The node's stable name (survives a restart of that node). */
  holder: string;
  /** Epoch ms: reserve time + the request's own budget + the settle's grace. */
  deadlineAt: number;
}

/** Moves the balance by `delta` unless that takes it below `floor`; the new balance. */
const moveBalance = preparedQuery((db, accountId: string, delta: number, floor: number) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ credits: eb('credits', '+', delta) }))
    .where('id', '=', accountId)
    .where('credits', '>=', floor)
    .returning('credits'),
);

const balanceOf = preparedQuery((db, accountId: string) =>
  db.selectFrom('accounts').select('credits').where('id', '=', accountId),
);

/**
 * A settle's row with the balance it leaves, read in the same statement: the settle of every
 * scrape is one round trip instead of a read and an insert. Casts: the values of an INSERT's
 * SELECT list have no column type to take on PostgreSQL.
 */
const insertSettle = preparedQuery(
  (db, accountId: string, requestId: string, amount: number, createdAt: number) =>
    db
      .insertInto('ledger')
      .columns(['account_id', 'request_id', 'kind', 'amount', 'balance_after', 'created_at'])
      .expression(
        db
          .selectFrom('accounts')
          .select([
            'id',
            sql<string>`cast(${requestId} as text)`.as('request_id'),
            sql<LedgerKind>`'settle'`.as('kind'),
            sql<number>`cast(${amount} as bigint)`.as('amount'),
            'credits',
            sql<number>`cast(${createdAt} as bigint)`.as('created_at'),
          ])
          .where('id', '=', accountId),
      )
      .returning('balance_after'),
);

async function record(
  db: Kysely<Database>,
  accountId: string,
  requestId: string | null,
  kind: LedgerKind,
  amount: number,
  balanceAfter: number,
  hold: ReservationHold | null = null,
): Promise<void> {
  await db.executeQuery(
    insertEntry(
      db,
      accountId,
      requestId,
      kind,
      amount,
      balanceAfter,
      Date.now(),
      hold?.holder ?? null,
      hold?.deadlineAt ?? null,
    ),
  );
}

/** The balance after the move, or null when it would go below `floor` (or no account). */
async function move(
  db: Kysely<Database>,
  accountId: string,
  delta: number,
  floor: number,
): Promise<number | null> {
  const { rows } = await db.executeQuery(moveBalance(db, accountId, delta, floor));
  return rows[0] ? Number(rows[0].credits) : null;
}

/**
 * Takes `amount` credits if the balance allows; returns the balance after, or null if short.
 * A request may reserve more than once (its engine escalated): every reserve row of a request
 * belongs to its one reservation, which ends once (`reservedFor` sums them).
 */
export async function reserveCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
  hold: ReservationHold | null = null,
): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const balance = await move(trx, accountId, -amount, amount);
    if (balance === null) return null;
    await record(trx, accountId, requestId, 'reserve', -amount, balance, hold);
    return balance;
  });
}

// PostgreSQL's reserve as one call (migration 015); its parameters take the function's types.
const RESERVE_CALL = 'select pagegrab_reserve($1, $2, $3, $4, $5, $6) as balance';

/**
 * `reserveCredits` as a commit of its own that need not reach the disk before the scrape goes
 * on (nobody has seen the reservation until the durable settle, which flushes it too). On
 * PostgreSQL one call, where a transaction was five round trips (BEGIN, SET LOCAL, UPDATE,
 * INSERT, COMMIT): the plain scrape's cost there is its round trips. On the embedded engine a
 * relaxed unit of the group commit, shared with concurrent scrapes.
 */
export async function reserveRelaxed(
  store: Pick<Store, 'db' | 'dialect' | 'transact'>,
  accountId: string,
  amount: number,
  requestId: string,
  hold: ReservationHold | null = null,
): Promise<number | null> {
  if (store.dialect === 'sqlite') {
    return store.transact((trx) => reserveCredits(trx, accountId, amount, requestId, hold), {
      durable: false,
    });
  }
  const { rows } = await store.db.executeQuery(
    CompiledQuery.raw(RESERVE_CALL, [
      accountId,
      requestId,
      amount,
      Date.now(),
      hold?.holder ?? null,
      hold?.deadlineAt ?? null,
    ]) as CompiledQuery<{ balance: number | null }>,
  );
  const balance = rows[0]?.balance;
  return balance === null || balance === undefined ? null : Number(balance);
}

// The kind is summed over, not filtered on: with `kind = 'reserve'` in the WHERE, SQLite
// chose the (kind, created_at) index and read every reserve row the ledger ever held, so each
// settle of a plan with a choice (every Firecrawl scrape) grew slower with the ledger.
const reservesOf = preparedQuery((db, requestId: string) =>
  db
    .selectFrom('ledger')
    .select(
      sql<string | number | null>`sum(case when kind = 'reserve' then amount else 0 end)`.as(
        'total',
      ),
    )
    .where('request_id', '=', requestId),
);

/** What a request has reserved in all (its reserve rows, an escalated one has several). */
export async function reservedFor(db: Kysely<Database>, requestId: string): Promise<number> {
  const { rows } = await db.executeQuery(reservesOf(db, requestId));
  return -Number(rows[0]?.total ?? 0);
}

/** The account's balance now; null: no such account. */
export async function creditsOf(db: Kysely<Database>, accountId: string): Promise<number | null> {
  const { rows } = await db.executeQuery(balanceOf(db, accountId));
  return rows[0] ? Number(rows[0].credits) : null;
}

/**
 * The 402 of a request that needed `needed` credits, saying so and what the account has now
 * (issue 30): every 402 whose text the contract does not fix (the Firecrawl door's).
 */
export async function shortOfCredits(
  db: Kysely<Database>,
  accountId: string,
  needed: number,
): Promise<AppError> {
  return appError('INSUFFICIENT_CREDITS', needed, (await creditsOf(db, accountId)) ?? 0);
}

/**
 * Confirms a reservation as spent. The balance already moved at reserve time; this records
 * the charge. Pass a transaction to settle together with a workflow's run record. When less
 * than the `reserved` amount is charged, the rest goes back first (a `release` entry), in
 * the same transaction as the settle.
 */
export async function settleCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
  reserved: number = amount,
): Promise<number> {
  if (reserved > amount) {
    return inTransaction(db, async (trx) => {
      const balance = await move(trx, accountId, reserved - amount, 0);
      if (balance === null) throw new Error(`no account ${accountId}`);
      await record(trx, accountId, requestId, 'release', reserved - amount, balance);
      await record(trx, accountId, requestId, 'settle', amount, balance);
      return balance;
    });
  }
  const { rows } = await db.executeQuery(
    insertSettle(db, accountId, requestId, amount, Date.now()),
  );
  if (!rows[0]) throw new Error(`no account ${accountId}`);
  return Number(rows[0].balance_after);
}

/** Returns a reservation that will not be charged; returns the balance after. */
export async function refundCredits(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const balance = await move(trx, accountId, amount, 0);
    if (balance === null) throw new Error(`no account ${accountId}`);
    await record(trx, accountId, requestId, 'refund', amount, balance);
    return balance;
  });
}

/**
 * Refunds a reservation if it was made and has not ended: for a reserve whose commit went
 * unanswered (the connection dropped), which may or may not have happened. Returns whether
 * there was one to refund; a reservation that already ended fails on the unique index.
 */
export async function refundIfReserved(
  db: Kysely<Database>,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const reserved = await trx
      .selectFrom('ledger')
      .select('id')
      .where('request_id', '=', requestId)
      .where('kind', '=', 'reserve')
      .executeTakeFirst();
    if (!reserved) return false;
    await refundCredits(trx, accountId, amount, requestId);
    return true;
  });
}

/**
 * An account's opening balance as its first ledger row, in the transaction that creates the
 * account (its `credits` column starts at the same figure, so the balance does not move).
 */
export async function recordOpeningGrant(
  db: Kysely<Database>,
  accountId: string,
  credits: number,
): Promise<void> {
  await record(db, accountId, null, 'grant', credits, credits);
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
