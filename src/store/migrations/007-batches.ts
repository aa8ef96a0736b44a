import type { Kysely } from 'kysely';

/**
 * `batches`: a Firecrawl batch scrape (its options as sent, webhook, counters, expiry).
 * `batch_pages`: one row per URL, from `queued` through `running` (held by one of the batch's
 * lanes) to `done`, `failed` or `cancelled`; a running page keeps its reserved plan and then
 * its result, so a lane taken over after a crash resumes instead of scraping or charging
 * again. `seq` numbers ended pages in the order they ended: results are paged by it, so a
 * page of results never shifts while the batch runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('webhook', 'text')
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('lanes', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('ended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('batches_expires_at').on('batches').column('expires_at').execute();

  await db.schema
    .createTable('batch_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lane', 'integer')
    .addColumn('request_id', 'text')
    .addColumn('plan', 'text')
    .addColumn('result', 'text')
    .addColumn('seq', 'integer')
    .addColumn('credits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error', 'text')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('batch_pages_position')
    .on('batch_pages')
    .columns(['batch_id', 'idx'])
    .unique()
    .execute();
  // The next queued page, a lane's running page, and results in the order they ended.
  await db.schema
    .createIndex('batch_pages_state')
    .on('batch_pages')
    .columns(['batch_id', 'state', 'idx'])
    .execute();
  await db.schema
    .createIndex('batch_pages_seq')
    .on('batch_pages')
    .columns(['batch_id', 'state', 'seq'])
    .execute();
}
