import type { Kysely } from 'kysely';

/**
 * Kept results are stored compressed with Brotli (issue 26, store/kept-results.ts): `encoding` says so.
 * Rows written before hold the result itself and keep a null encoding.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_results').addColumn('encoding', 'text').execute();
}
