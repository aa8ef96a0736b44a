/**
 * `request_days` (migration 012): the account's request records summed per UTC day, target
 * host and status, kept in step with `requests` in the same transaction that writes or
 * settles a record (run-records.ts). The overview's figures (GET /api/account/usage) read
 * these few rows instead of every record of the last 30 days (≈1 s at 500,000 records).
 */
import { type Kysely, sql } from 'kysely';
import { preparedQuery } from './prepared-query.js';
import type { Database } from './schema.js';

export const DAY_MS = 24 * 3600_000;

export interface RequestDaysTable {
  account_id: string;
  /** UTC day number: created_at / DAY_MS. */
  day: number;
  /** The target's host, '' when the record has none (a key column cannot be null). */
  host: string;
  status: 'success' | 'failed' | 'pending';
  requests: number;
  credits: number;
  /** Sum of duration_ms over the records that have one; `timed` counts them. */
  duration_sum: number;
  timed: number;
  /** The greatest error text seen (the direct aggregate's max(error)). */
  error: string | null;
}

export function requestDaysTables(db: Kysely<Database>) {
  return db.withTables<{ request_days: RequestDaysTable }>();
}

/** What one record adds to its day's row (or takes away, `sign` -1, when it is rewritten). */
export interface DayContribution {
  account_id: string;
  created_at: number;
  host: string | null;
  status: 'success' | 'failed' | 'pending';
  credits: number;
  duration_ms: number | null;
  error: string | null;
}

/** On every settle: built once per dialect. */
const upsertDay = preparedQuery(
  (
    db,
    accountId: string,
    day: number,
    host: string,
    status: string,
    requests: number,
    credits: number,
    durationSum: number,
    timed: number,
    error: string | null,
  ) =>
    requestDaysTables(db)
      .insertInto('request_days')
      .values({
        account_id: accountId,
        day,
        host,
        status: status as RequestDaysTable['status'],
        requests,
        credits,
        duration_sum: durationSum,
        timed,
        error,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'day', 'host', 'status']).doUpdateSet((eb) => ({
          requests: eb('request_days.requests', '+', eb.ref('excluded.requests')),
          credits: eb('request_days.credits', '+', eb.ref('excluded.credits')),
          duration_sum: eb('request_days.duration_sum', '+', eb.ref('excluded.duration_sum')),
          timed: eb('request_days.timed', '+', eb.ref('excluded.timed')),
          // max() of two values, written the same way on both engines.
          error: eb
            .case()
            .when(
              eb.and([
                eb('excluded.error', 'is not', null),
                eb.or([
                  eb('request_days.error', 'is', null),
                  eb('excluded.error', '>', eb.ref('request_days.error')),
                ]),
              ]),
            )
            .then(eb.ref('excluded.error'))
            .else(eb.ref('request_days.error'))
            .end(),
        })),
      ),
);

/**
 * Adds a record to its day (`sign` 1) or takes its old version away (-1) before the record is
 * rewritten. An error text is never taken away: the day keeps the greatest one it has seen
 * (records that failed stay failed with their error, so this equals the direct max).
 */
export async function countInDay(
  db: Kysely<Database>,
  record: DayContribution,
  sign: 1 | -1,
): Promise<void> {
  const timed = record.duration_ms === null ? 0 : 1;
  await db.executeQuery(
    upsertDay(
      db,
      record.account_id,
      Math.floor(Number(record.created_at) / DAY_MS),
      record.host ?? '',
      record.status,
      sign,
      sign * Number(record.credits),
      sign * Number(record.duration_ms ?? 0),
      sign * timed,
      sign === 1 ? record.error : null,
    ),
  );
}

/** The window's records per UTC day and status (the chart, the outcomes). */
export interface DayTotal {
  day: number;
  status: 'success' | 'failed' | 'pending';
  n: number;
  credits: number;
}

/** The window's records per target host and status (the slowest and failing targets). */
export interface HostTotal {
  /** '' for records without a host. */
  host: string;
  status: 'success' | 'failed' | 'pending';
  n: number;
  /** Sum of the durations that are known, and how many they are. */
  ms: number;
  timed: number;
  error: string | null;
}

export interface WindowTotals {
  days: DayTotal[];
  hosts: HostTotal[];
}

/**
 * The account's totals from UTC day `firstDay` on, summed by the database in one statement
 * (one snapshot): a few hundred rows, where the rollup holds one per day, host and status.
 */
export async function windowTotals(
  db: Kysely<Database>,
  accountId: string,
  firstDay: number,
): Promise<WindowTotals> {
  const window = () =>
    requestDaysTables(db)
      .selectFrom('request_days')
      .where('account_id', '=', accountId)
      .where('day', '>=', firstDay)
      .where('requests', '>', 0);
  const rows = await window()
    .select([
      sql<string>`'day'`.as('kind'),
      'day',
      sql<string>`''`.as('host'),
      'status',
      sql<number>`sum(requests)`.as('n'),
      sql<number>`sum(credits)`.as('credits'),
      sql<number>`0`.as('ms'),
      sql<number>`0`.as('timed'),
      sql<string | null>`null`.as('error'),
    ])
    .groupBy(['day', 'status'])
    .unionAll(
      window()
        .select([
          sql<string>`'host'`.as('kind'),
          sql<number>`0`.as('day'),
          'host',
          'status',
          sql<number>`sum(requests)`.as('n'),
          sql<number>`sum(credits)`.as('credits'),
          sql<number>`sum(duration_sum)`.as('ms'),
          sql<number>`sum(timed)`.as('timed'),
          sql<string | null>`max(error)`.as('error'),
        ])
        .groupBy(['host', 'status']),
    )
    .execute();
  const totals: WindowTotals = { days: [], hosts: [] };
  for (const r of rows) {
    if (r.kind === 'day') {
      totals.days.push({
        day: Number(r.day),
        status: r.status,
        n: Number(r.n),
        credits: Number(r.credits),
      });
    } else {
      totals.hosts.push({
        host: r.host,
        status: r.status,
        n: Number(r.n),
        ms: Number(r.ms),
        timed: Number(r.timed),
        error: r.error,
      });
    }
  }
  return totals;
}
