/**
 * The overview's sums straight from the `requests` records (what the overview read before
 * the request_days rollup, migration 012): the rollup's test compares them with the rollup,
 * and bench/request-log-pg.ts times both.
 */
import { type Kysely, sql } from 'kysely';
import { DAY_MS, type WindowTotals } from '../../src/store/request-days.js';
import type { Database } from '../../src/store/schema.js';

const dayOf = sql<number>`created_at / ${sql.raw(String(DAY_MS))}`;
const hostOf = sql<string>`coalesce(host, '')`;

function window(db: Kysely<Database>, accountId: string, firstDay: number) {
  return db
    .selectFrom('requests')
    .where('account_id', '=', accountId)
    .where('created_at', '>=', firstDay * DAY_MS);
}

/** The account's records from UTC day `firstDay` on, summed per day, host and status. */
export async function directDayGroups(db: Kysely<Database>, accountId: string, firstDay: number) {
  const rows = await window(db, accountId, firstDay)
    .select([
      dayOf.as('day'),
      hostOf.as('host'),
      'status',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(credits)`.as('credits'),
      sql<number | null>`sum(duration_ms)`.as('ms'),
      sql<number>`count(duration_ms)`.as('timed'),
      sql<string | null>`max(error)`.as('error'),
    ])
    .groupBy([dayOf, hostOf, 'status'])
    .execute();
  return rows.map((r) => ({
    day: Number(r.day),
    host: r.host,
    status: r.status,
    n: Number(r.n),
    credits: Number(r.credits),
    ms: Number(r.ms ?? 0),
    timed: Number(r.timed),
    error: r.error,
  }));
}

/** The overview's totals (per day, per host) summed from the records. */
export async function directTotals(
  db: Kysely<Database>,
  accountId: string,
  firstDay: number,
): Promise<WindowTotals> {
  const [days, hosts] = await Promise.all([
    window(db, accountId, firstDay)
      .select([
        dayOf.as('day'),
        'status',
        sql<number>`count(*)`.as('n'),
        sql<number>`sum(credits)`.as('credits'),
      ])
      .groupBy([dayOf, 'status'])
      .execute(),
    window(db, accountId, firstDay)
      .select([
        hostOf.as('host'),
        'status',
        sql<number>`count(*)`.as('n'),
        sql<number | null>`sum(duration_ms)`.as('ms'),
        sql<number>`count(duration_ms)`.as('timed'),
        sql<string | null>`max(error)`.as('error'),
      ])
      .groupBy([hostOf, 'status'])
      .execute(),
  ]);
  return {
    days: days.map((r) => ({
      day: Number(r.day),
      status: r.status,
      n: Number(r.n),
      credits: Number(r.credits),
    })),
    hosts: hosts.map((r) => ({
      host: r.host,
      status: r.status,
      n: Number(r.n),
      ms: Number(r.ms ?? 0),
      timed: Number(r.timed),
      error: r.error,
    })),
  };
}
