import { type Kysely, sql } from 'kysely';

/**
 * The overview's rollup (store/request-days.ts): the request records summed per account, UTC
 * day, host ('' for none) and status, maintained in the transaction that writes or settles a
 * record. Filled here from the records already kept, so the figures do not change on upgrade
 * (one grouped pass over `requests`, once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
