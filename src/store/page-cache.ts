/**
 * The `page_cache` table (migration 006): a per-account result cache keyed by a hash of the
 * scrape's options. A read names the oldest entry it accepts; entries older than the
 * retention are purged.
 */
import type { Kysely } from 'kysely';
import { preparedQuery } from './prepared-query.js';
import type { Database } from './schema.js';

export interface PageCacheTable {
  account_id: string;
  cache_key: string;
  document: string;
  final_url: string;
  target_status: number;
  used: string | null;
  created_at: number;
}

export interface CachedPage {
  /** JSON text of the result's document. */
  document: string;
  finalUrl: string;
  targetStatus: number;
  /** JSON text, or null. */
  used: string | null;
  createdAt: number;
}

function tables(db: Kysely<Database>) {
  return db.withTables<{ page_cache: PageCacheTable }>();
}

const selectPage = preparedQuery((db, accountId: string, key: string, notBefore: number) =>
  tables(db)
    .selectFrom('page_cache')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('cache_key', '=', key)
    .where('created_at', '>=', notBefore),
);

export async function readCachedPage(
  db: Kysely<Database>,
  accountId: string,
  key: string,
  notBefore: number,
): Promise<CachedPage | null> {
  const [row] = (await db.executeQuery(selectPage(db, accountId, key, notBefore))).rows;
  if (!row) return null;
  return {
    document: row.document,
    finalUrl: row.final_url,
    targetStatus: Number(row.target_status),
    used: row.used,
    createdAt: Number(row.created_at),
  };
}

const upsertPage = preparedQuery(
  (
    db,
    accountId: string,
    key: string,
    document: string,
    finalUrl: string,
    targetStatus: number,
    used: string | null,
    createdAt: number,
  ) => {
    const values = {
      document,
      final_url: finalUrl,
      target_status: targetStatus,
      used,
      created_at: createdAt,
    };
    return tables(db)
      .insertInto('page_cache')
      .values({ account_id: accountId, cache_key: key, ...values })
      .onConflict((oc) => oc.columns(['account_id', 'cache_key']).doUpdateSet(values));
  },
);

/** Stores or replaces the account's entry for the key (built once: it runs per answer). */
export async function storeCachedPage(
  db: Kysely<Database>,
  accountId: string,
  key: string,
  page: CachedPage,
): Promise<void> {
  await db.executeQuery(
    upsertPage(
      db,
      accountId,
      key,
      page.document,
      page.finalUrl,
      page.targetStatus,
      page.used,
      page.createdAt,
    ),
  );
}

export async function purgeCachedPages(db: Kysely<Database>, before: number): Promise<number> {
  const result = await tables(db)
    .deleteFrom('page_cache')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
