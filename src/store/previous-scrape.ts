/**
 * The account's previous successful scrape of a URL (change tracking): the newest record of
 * the same output type (the Firecrawl door's `document`, the native `change_tracking`)
 * before the current one (ids are UUIDv7: older is smaller), on the (account_id, id) index.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function previousScrapeOf(
  db: Kysely<Database>,
  accountId: string,
  url: string,
  beforeId: string,
  outputType: 'document' | 'change_tracking' = 'document',
): Promise<{ id: string; createdAt: number } | null> {
  const row = await db
    .selectFrom('requests')
    .select(['id', 'created_at'])
    .where('account_id', '=', accountId)
    .where('id', '<', beforeId)
    .where('url', '=', url)
    .where('output_type', '=', outputType)
    .where('status', '=', 'success')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, createdAt: Number(row.created_at) } : null;
}
