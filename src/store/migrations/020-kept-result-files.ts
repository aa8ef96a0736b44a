import type { Kysely } from 'kysely';

/**
 * On the embedded engine a kept result is a file beside the database (issue 26,
 * store/result-files.ts): `file` names it by its hash and `body` is empty. The index serves the
 * purge's sweep (which files rows still name). Rows written before keep a null `file`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_results').addColumn('file', 'text').execute();
  await db.schema
    .createIndex('request_results_file')
    .on('request_results')
    .column('file')
    .execute();
}
