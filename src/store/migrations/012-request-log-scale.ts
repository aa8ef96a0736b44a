import { type Kysely, sql } from 'kysely';

/**
 * The request log at scale (bench/request-log.ts, 1,000,000 records in one account):
 * - the overview's rollup (store/request-days.ts): the request records summed per account,
 *   UTC day, host ('' for none) and status, maintained in the transaction that writes or
 *   settles a record. Filled here from the records already kept, so the figures do not change
 *   on upgrade (one grouped pass over `requests`, once);
 * - on PostgreSQL, a trigram index on lower(url) (pg_trgm) for the log's URL search `q`
 *   (`lower(url) LIKE '%…%'`), when the extension can be had; SQLite has no such index, its
 *   search reads the account's records newest first (README, the request log).
 */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('request_days')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addColumn('duration_sum', 'bigint', (c) => c.notNull())
    .addColumn('timed', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('request_days_pk', ['account_id', 'day', 'host', 'status'])
    .execute();
  await fillRequestDays(db);
  if (dialect === 'postgres') await urlSearchIndex(db);
}

/**
 * pg_trgm ships with PostgreSQL's contrib and is a trusted extension (13+: a database owner
 * may create it), but a managed server may lack it or refuse it. Tried under a savepoint: if
 * it cannot be created, the migration goes on without the index and `q` scans as on SQLite.
 */
async function urlSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`savepoint url_search`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint url_search`.execute(db);
    return;
  }
  await sql`release savepoint url_search`.execute(db);
  await sql`create index requests_url_trgm on requests using gin (lower(url) gin_trgm_ops)`.execute(
    db,
  );
}

/** Sums every record into the rollup (the migration; the benchmark after seeding records). */
export async function fillRequestDays(db: Kysely<unknown>): Promise<void> {
  await sql`insert into request_days
      (account_id, day, host, status, requests, credits, duration_sum, timed, error)
    select account_id, created_at / 86400000, coalesce(host, ''), status, count(*),
      sum(credits), coalesce(sum(duration_ms), 0), count(duration_ms), max(error)
    from requests
    group by account_id, created_at / 86400000, coalesce(host, ''), status`.execute(db);
}
