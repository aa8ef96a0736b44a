/**
 * The overview's groups summed straight from the `requests` records (what the overview read
 * before the request_days rollup, migration 012): the rollup's test compares them, and
 * bench/request-log-pg.ts times both.
 */
import { type Kysely, sql } from 'kysely';
import { DAY_MS, type DayGroup } from '../../src/store/request-days.js';
import type { Database } from '../../src/store/schema.js';

export async function directDayGroups(
  db: Kysely<Database>,
  accountId: string,
  firstDay: number,
): Promise<DayGroup[]> {
  const day = sql<number>`created_at / ${sql.raw(String(DAY_MS))}`;
  const rows = await db
    .selectFrom('requests')
    .where('account_id', '=', accountId)
    .where('created_at', '>=', firstDay * DAY_MS)
    .select([
      day.as('day'),
      'host',
      'status',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(credits)`.as('credits'),
      sql<number | null>`sum(duration_ms)`.as('ms'),
      sql<number>`count(duration_ms)`.as('timed'),
      sql<string | null>`max(error)`.as('error'),
    ])
    .groupBy([day, 'host', 'status'])
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
