import type { Kysely } from 'kysely';

/**
 * Change numbers for the workflow list cache (src/workflows/list-cache.ts): every change to
 * a workflow takes the next `accounts.workflow_seq` of its account and stamps the row's
 * `change_seq` with it, so a node brings its copy of a list up to date by reading the rows
 * numbered above the copy's, through the (account_id, change_seq) index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('workflow_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('workflows')
    .addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('workflows_account_change')
    .on('workflows')
    .columns(['account_id', 'change_seq'])
    .execute();
}
