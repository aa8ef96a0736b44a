import type { Kysely } from 'kysely';

/**
 * A reservation says who holds it and until when (issue 24, point 5): `holder` is the node
 * that will end it (its stable name, see main.ts), `deadline_at` the end of its request's own
 * time budget plus the settle's grace. A node that starts ends what it held before a crash at
 * once, and the reaper ends another node's after its deadline instead of a fixed 10 minutes.
 * Both null on every other row, and on reservations a job ends (batch and crawl pages).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger').addColumn('holder', 'text').execute();
  await db.schema.alterTable('ledger').addColumn('deadline_at', 'bigint').execute();
  // The start-up release reads one holder's reservations; most rows have none.
  await db.schema
    .createIndex('ledger_holder')
    .on('ledger')
    .columns(['holder', 'created_at'])
    .where('holder', 'is not', null)
    .execute();
}
