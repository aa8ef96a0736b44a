import { type Kysely, sql } from 'kysely';

/**
 * A reservation ends once: at most one settle or refund per request id, enforced by the
 * database, so two nodes (or a reaper racing a late finish) can never both end it.
 * The (kind, created_at) index serves the sweep for reservations that never ended.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('ledger_request_end')
    .on('ledger')
    .column('request_id')
    .unique()
    .where(sql.ref('kind'), 'in', sql`('settle', 'refund')`)
    .execute();
  await db.schema
    .createIndex('ledger_kind_created')
    .on('ledger')
    .columns(['kind', 'created_at'])
    .execute();
}
