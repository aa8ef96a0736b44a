import type { Kysely } from 'kysely';

/**
 * The finished scrape of a webhook request, kept until its delivery ends: the delivery
 * attempts (possibly after a restart) send these bytes, and its presence tells a re-claimed
 * scrape job that the scrape already ran and was charged.
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('webhook_results')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('scrape_status', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('target_status', 'integer')
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
