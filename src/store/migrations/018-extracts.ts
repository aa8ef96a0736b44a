import type { Kysely } from 'kysely';

/** The Firecrawl door's extract jobs (issue 31): their request, state and answer until expiry. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('extracts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('sources', 'text')
    .addColumn('error', 'text')
    .addColumn('credits_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('extracts_expires_at').on('extracts').column('expires_at').execute();
}
