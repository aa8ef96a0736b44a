/**
 * Returns reservations that never ended. A direct scrape reserves, then settles or refunds
 * within its budget (at most 120 s); if the node dies in between, nothing else would ever
 * give the credits back. Every node sweeps now and then; the unique "one end per request"
 * index makes concurrent sweeps (and a very late finish) harmless: the second end fails.
 * Webhook scrapes are left alone while their record is pending: their job ends them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { refundCredits } from './credit-ledger.js';

export interface ReaperOptions {
  /** A reservation older than this with no end is refunded. Default 10 minutes. */
  maxAgeMs?: number;
  /** Reservations refunded per sweep at most. Default 500. */
  batch?: number;
}

/** One sweep; returns how many reservations it refunded. */
export async function refundAbandonedReservations(
  db: Kysely<Database>,
  options: ReaperOptions = {},
  now = Date.now(),
): Promise<number> {
  const cutoff = now - (options.maxAgeMs ?? 10 * 60_000);
  const rows = await db
    .selectFrom('ledger as l')
    .select(['l.account_id', 'l.request_id', 'l.amount'])
    .where('l.kind', '=', 'reserve')
    .where('l.created_at', '<', cutoff)
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
    )
    .limit(options.batch ?? 500)
    .execute();
  let refunded = 0;
  for (const row of rows) {
    try {
      await refundCredits(db, row.account_id, -Number(row.amount), row.request_id as string);
      refunded++;
    } catch {
      // Another node (or the request itself) ended it first: the unique index said no.
    }
  }
  return refunded;
}
