import type { Kysely } from 'kysely';

/**
 * The account's request log (the dashboard's Requests view, GET /api/requests): every scrape
 * now leaves a `requests` row, with where it came from (`source`), the target's host (the
 * host filter) and its parameters (`params`, JSON). Ids are UUIDv7, so "newest first" and a
 * time range are both ranges of `id`: each filter has an index ending in `id` and a page is
 * one index range scan. `request_results` keeps recent results (RESULT_RETENTION_DAYS).
 * `api_keys.prefix`: the first characters of a key, shown to tell keys apart.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema.alterTable('requests').addColumn('source', 'text').execute();
  await db.schema.alterTable('requests').addColumn('host', 'text').execute();
  await db.schema.alterTable('requests').addColumn('params', 'text').execute();
  await db.schema
    .createIndex('requests_account_id')
    .on('requests')
    .columns(['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('requests_account_status')
    .on('requests')
    .columns(['account_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('requests_account_host')
    .on('requests')
    .columns(['account_id', 'host', 'id'])
    .execute();
  await db.schema
    .createIndex('requests_workflow_id')
    .on('requests')
    .columns(['workflow_id', 'id'])
    .execute();

  await db.schema
    .createTable('request_results')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_results_account')
    .on('request_results')
    .columns(['account_id', 'request_id'])
    .execute();
  await db.schema
    .createIndex('request_results_created_at')
    .on('request_results')
    .column('created_at')
    .execute();

  await db.schema.alterTable('api_keys').addColumn('prefix', 'text').execute();
}
