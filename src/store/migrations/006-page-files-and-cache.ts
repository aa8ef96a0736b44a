import type { Kysely } from 'kysely';

/**
 * `page_files`: screenshots the Firecrawl door links to (an unguessable id each, kept until
 * `expires_at`). `page_cache`: per-account results of the door's scrapes, read back when a
 * caller's `maxAge` allows (the key is a hash of the scrape's options).
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('page_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('body', bytes, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('page_files_expires_at')
    .on('page_files')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('page_cache')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('cache_key', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('final_url', 'text', (c) => c.notNull())
    .addColumn('target_status', 'integer', (c) => c.notNull())
    .addColumn('used', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_cache_pk', ['account_id', 'cache_key'])
    .execute();
  await db.schema
    .createIndex('page_cache_created_at')
    .on('page_cache')
    .column('created_at')
    .execute();
}
