import type { Kysely } from 'kysely';

/**
 * Crawls are batches whose page list grows (jobs/crawls/):
 *
 * - `batches.kind`: `batch` or `crawl` (webhook event names, the crawl's own rows).
 * - `batch_pages` gains the frontier's columns: `norm_url` (the normalised URL, unique per
 *   crawl: every URL is queued once, jobs/crawls/crawl-url.ts states the rules; null for a
 *   batch's pages), `depth` (discovery depth), `host` (whose politeness applies),
 *   `not_before` (a throttled page waits) and `retries` (times it was throttled).
 * - `crawls`: what a crawl keeps beyond its batch row (start URL, crawl options, bytes of
 *   results stored, for the per-account bound).
 * - `crawl_hosts`: one row per target host, shared by every crawl and node: when the next
 *   page may start (delay, backoff after 429/503), the backoff, and the host's robots.txt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('batches')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('batch'))
    .execute();
  for (const [name, type] of [
    ['norm_url', 'text'],
    ['host', 'text'],
    ['not_before', 'bigint'],
  ] as const) {
    await db.schema.alterTable('batch_pages').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('batch_pages')
    .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('batch_pages')
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // NULLs are distinct in a unique index on both engines: batches' pages do not collide.
  await db.schema
    .createIndex('batch_pages_norm_url')
    .on('batch_pages')
    .columns(['batch_id', 'norm_url'])
    .unique()
    .execute();
  // Pages running per host, across crawls (per-host concurrency).
  await db.schema
    .createIndex('batch_pages_host_state')
    .on('batch_pages')
    .columns(['state', 'host'])
    .execute();

  await db.schema
    .createTable('crawls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('bytes_stored', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('crawls_account')
    .on('crawls')
    .columns(['account_id', 'expires_at'])
    .execute();

  await db.schema
    .createTable('crawl_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('next_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('backoff_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('robots', 'text')
    .addColumn('robots_at', 'bigint')
    .execute();
}
