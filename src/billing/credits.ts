/**
 * Every credit movement, as the rest of the service asks for one (issue 27): a request
 * reserves, then settles (charged) or is refunded, once; a flat charge (a cached page) is
 * both at once. Nothing outside billing/ calls the ledger (credit-ledger.ts) or the
 * PostgreSQL end (end-with-record-pg.ts): this is a facade over them that adds no round
 * trip, so the plain scrape's statements are the ledger's own.
 */
import type { Kysely } from 'kysely';
import { appError } from '../errors.js';
import type { Store } from '../store/db.js';
import { isOneOff, type RunRecord, saveRunRecord } from '../store/run-records.js';
import type { Database } from '../store/schema.js';
import {
  grantCredits,
  type ReservationHold,
  recordOpeningGrant,
  refundCredits,
  refundIfReserved,
  reserveCredits,
  reservedFor,
  reserveRelaxed,
  SETTLE_GRACE_MS,
  settleCredits,
  shortOfCredits,
} from './credit-ledger.js';
import { endWithRecordPg } from './end-with-record-pg.js';

export { type ReservationHold, SETTLE_GRACE_MS, shortOfCredits };

export type Ledger = Pick<Store, 'db' | 'dialect' | 'transact'>;

/** A request's credits: who pays, under which id. */
export interface CreditRequest {
  accountId: string;
  requestId: string;
}

/**
 * Holds `amount` for the request, as a commit that need not reach the disk before the work
 * goes on (the durable end flushes it too); the balance after, or null when short. A request
 * may reserve more than once (an escalated engine): its reserves are one reservation.
 */
export function reserve(
  store: Ledger,
  request: CreditRequest,
  amount: number,
  hold: ReservationHold | null = null,
): Promise<number | null> {
  return reserveRelaxed(store, request.accountId, amount, request.requestId, hold);
}

/**
 * What the request holds: `amount` when known, else what its reserve rows add up to (a plan
 * with a choice of ways may have escalated).
 */
function heldBy(db: Kysely<Database>, request: CreditRequest, amount: number | null) {
  return amount === null ? reservedFor(db, request.requestId) : Promise.resolve(amount);
}

/**
 * Charges `charged` of what the request holds (`held`) and returns the rest; the balance
 * after. No request record: for work that keeps none (map).
 */
export function settle(
  db: Kysely<Database>,
  request: CreditRequest,
  charged: number,
  held: number = charged,
): Promise<number> {
  return settleCredits(db, request.accountId, charged, request.requestId, held);
}

/** Returns all the request holds (`held`; null: as the ledger says); the balance after. */
export async function refund(
  db: Kysely<Database>,
  request: CreditRequest,
  held: number | null,
): Promise<number> {
  return refundCredits(db, request.accountId, await heldBy(db, request, held), request.requestId);
}

/**
 * Refunds a reservation whose commit went unanswered (it may or may not have happened);
 * whether there was one. One that already ended fails on the ledger's unique index.
 */
export function refundIfHeld(
  db: Kysely<Database>,
  request: CreditRequest,
  amount: number,
): Promise<boolean> {
  return refundIfReserved(db, request.accountId, amount, request.requestId);
}

/** How a request ends: charged (what it cost) or refunded (`charged: null`), and its record. */
export interface RequestEnd extends CreditRequest {
  /** null: refunded whole. */
  charged: number | null;
  /** What the request holds; null: as the ledger says (an escalated plan). */
  held: number | null;
  record: RunRecord;
}

/**
 * Settles or refunds a request and writes its record, as one unit: on PostgreSQL a one-off
 * record that ends what it holds whole is one statement (end-with-record-pg.ts: every round
 * trip is waited for by the answer); otherwise one transaction. The balance after.
 */
export function endRequest(store: Ledger, end: RequestEnd): Promise<number> {
  const { record, charged, held } = end;
  if (
    store.dialect === 'postgres' &&
    held !== null &&
    isOneOff(record) &&
    (charged === null || charged === held)
  ) {
    return endWithRecordPg(store.db, {
      accountId: end.accountId,
      requestId: end.requestId,
      kind: charged === null ? 'refund' : 'settle',
      amount: held,
      record,
    });
  }
  return store.transact(async (trx) => {
    const holds = await heldBy(trx, end, held);
    const after =
      charged === null
        ? await refundCredits(trx, end.accountId, holds, end.requestId)
        : await settleCredits(trx, end.accountId, charged, end.requestId, holds);
    await saveRunRecord(trx, record);
    return after;
  });
}

/**
 * A flat charge (a page from the account's cache): reserved, settled and recorded in one
 * transaction, so every such request leaves its record; the balance after. 402 with what
 * it needed and the balance when short, and then nothing is written.
 */
export async function charge(
  store: Ledger,
  request: CreditRequest,
  amount: number,
  record: RunRecord,
): Promise<number> {
  const { accountId, requestId } = request;
  const balance = await store.transact(async (trx) => {
    if ((await reserveCredits(trx, accountId, amount, requestId)) === null) return null;
    const after = await settleCredits(trx, accountId, amount, requestId);
    await saveRunRecord(trx, record);
    return after;
  });
  if (balance === null) throw await shortOfCredits(store.db, accountId, amount);
  return balance;
}

/** An operator's grant (or removal: never below 0); the balance after, null: refused. */
export function grant(db: Kysely<Database>, accountId: string, delta: number) {
  return grantCredits(db, accountId, delta);
}

/** A new account's opening balance, in the transaction that creates it. */
export function openingGrant(db: Kysely<Database>, accountId: string, credits: number) {
  return recordOpeningGrant(db, accountId, credits);
}

/** The contract's fixed 402 (the native door), or the one with figures (Firecrawl's). */
export async function shortOf(
  db: Kysely<Database>,
  accountId: string,
  needed: number,
  figures: boolean,
) {
  return figures ? shortOfCredits(db, accountId, needed) : appError('INSUFFICIENT_CREDITS');
}
