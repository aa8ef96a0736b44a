/**
 * Returns reservations that never ended. A direct scrape reserves, then settles or refunds
 * within its budget; if its node dies in between, nothing else would ever give the credits
 * back. Two ways, both harmless when they race each other or a very late finish (the unique
 * "one end per request" index makes the second end fail):
 *
 * - the sweep, on every node now and then: a held reservation (one with a holder and a
 *   deadline, migration 013) once its deadline passed, which follows the request's own time
 *   budget; one without (older rows, batch and crawl pages) after the fixed `maxAgeMs`;
 * - the start-up release: a node that starts ends at once the reservations it held before a
 *   crash (`releaseOwnReservations`).
 *
 * Webhook scrapes are left alone while their record is pending: their job ends them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { refundCredits, reservedFor } from './credit-ledger.js';

export interface ReaperOptions {
  /** A reservation with no holder, older than this and with no end, is refunded. Default 10 minutes. */
  maxAgeMs?: number;
  /** Reservations refunded per sweep at most. Default 500. */
  batch?: number;
}

const DEFAULT_BATCH = 500;

type OpenReservations = ReturnType<typeof openReservations>;

/** Reservations with no end whose request is not a pending webhook scrape. */
function openReservations(db: Kysely<Database>) {
  return db
    .selectFrom('ledger as l')
    .select(['l.account_id', 'l.request_id'])
    .where('l.kind', '=', 'reserve')
    .where('l.request_id', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ledger as e')
            .select('e.id')
            .whereRef('e.request_id', '=', 'l.request_id')
            .where('e.kind', 'in', ['settle', 'refund']),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('requests as r')
            .select('r.id')
            .whereRef('r.id', '=', 'l.request_id')
            .where('r.status', '=', 'pending'),
        ),
      ),
    );
}

async function refundAll(db: Kysely<Database>, query: OpenReservations): Promise<number> {
  const rows = await query.execute();
  let refunded = 0;
  const seen = new Set<string>();
  for (const row of rows) {
    const requestId = row.request_id as string;
    // An escalated request has several reserve rows and one end: all of them go back at once.
    if (seen.has(requestId)) continue;
    seen.add(requestId);
    try {
      const amount = await reservedFor(db, requestId);
      await refundCredits(db, row.account_id, amount, requestId);
      refunded++;
    } catch {
      // Another node (or the request itself) ended it first: the unique index said no.
    }
  }
  return refunded;
}

/** One sweep; returns how many reservations it refunded. */
export async function refundAbandonedReservations(
  db: Kysely<Database>,
  options: ReaperOptions = {},
  now = Date.now(),
): Promise<number> {
  const cutoff = now - (options.maxAgeMs ?? 10 * 60_000);
  const query = openReservations(db)
    // A deadline is never before its reservation: this bound keeps the sweep on the index.
    .where('l.created_at', '<=', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('l.deadline_at', 'is not', null), eb('l.deadline_at', '<', now)]),
        eb.and([eb('l.deadline_at', 'is', null), eb('l.created_at', '<', cutoff)]),
      ]),
    )
    .limit(options.batch ?? DEFAULT_BATCH);
  return refundAll(db, query);
}

export interface OwnReservations {
  /**
   * This node's stable name; null: every holder's (the embedded engine, whose data-dir lock
   * makes the starting node the only one, so every held reservation is dead).
   */
  holder: string | null;
  /** Only reservations made before this (epoch ms): the ones of this run are alive. */
  before: number;
}

/**
 * Refunds, at start, the open reservations this node held when it stopped (a crash, kill -9):
 * their requests died with it. Returns how many it refunded.
 */
export async function releaseOwnReservations(
  db: Kysely<Database>,
  own: OwnReservations,
): Promise<number> {
  let total = 0;
  for (;;) {
    const held = openReservations(db)
      .where('l.created_at', '<', own.before)
      .where('l.holder', own.holder === null ? 'is not' : '=', own.holder)
      .limit(DEFAULT_BATCH);
    const refunded = await refundAll(db, held);
    total += refunded;
    // Fewer than a batch found, or none of them could be ended (another node raced us).
    if (refunded < DEFAULT_BATCH) return total;
  }
}
