import type { Kysely } from 'kysely';

/**
 * An API key's name (the account's own words for it, null until given) and when it last
 * authenticated a request (written at most once a minute per key and node, accounts/key-use.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}
