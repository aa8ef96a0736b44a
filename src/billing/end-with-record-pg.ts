/**
 * The end of a one-off scrape on PostgreSQL in one statement: its charge (or refund), its
 * request record and the record's day in the rollup (issue 26). As a transaction it was five
 * round trips (BEGIN, the ledger, the record, the day, COMMIT), every one waited for by the
 * answer; here it is one, and one implicit transaction: the ledger stays exact, since a
 * second end of the same request fails on the ledger's unique index and takes the record and
 * its day with it.
 *
 * The record is inserted only from the ledger's row (`from ended`): no account, no record,
 * as when the transaction rolled back. Its values are cast to their columns' types because
 * an INSERT's SELECT list gives them none.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { RECORD_COLUMNS, type RunRecord, recordValues } from '../store/run-records.js';
import type { Database } from '../store/schema.js';

/** Column types of `requests` (migrations 001, 008, 011); the rest are text. */
const COLUMN_TYPES: Readonly<Record<string, string>> = {
  status_code: 'integer',
  target_status: 'integer',
  render: 'integer',
  duration_ms: 'integer',
  credits: 'bigint',
  created_at: 'bigint',
};

/** `$1` account, `$2` request, `$3` amount, `$4` the ledger row's time; the record from `$5`. */
const SETTLE_SOURCE = `ended as (
  insert into ledger (account_id, request_id, kind, amount, balance_after, created_at)
  select id, cast($2 as text), 'settle', cast($3 as bigint), credits, cast($4 as bigint)
  from accounts where id = $1
  returning balance_after
)`;

const REFUND_SOURCE = `moved as (
  update accounts set credits = credits + cast($3 as bigint) where id = $1 returning id, credits
), ended as (
  insert into ledger (account_id, request_id, kind, amount, balance_after, created_at)
  select id, cast($2 as text), 'refund', cast($3 as bigint), credits, cast($4 as bigint)
  from moved
  returning balance_after
)`;

// The day's upsert is request-days.ts's (countInDay with sign 1), read from the inserted row.
const RECORD_AND_DAY = `kept as (
  insert into requests (${RECORD_COLUMNS.join(', ')})
  select ${RECORD_COLUMNS.map((column, index) => `cast($${index + 5} as ${COLUMN_TYPES[column] ?? 'text'})`).join(', ')}
  from ended
  on conflict (id) do nothing
  returning account_id, created_at, host, status, credits, duration_ms, error
), counted as (
  insert into request_days as d
    (account_id, day, host, status, requests, credits, duration_sum, timed, error)
  select account_id, created_at / 86400000, coalesce(host, ''), status, 1, credits,
    coalesce(duration_ms, 0), case when duration_ms is null then 0 else 1 end, error
  from kept
  on conflict (account_id, day, host, status) do update set
    requests = d.requests + excluded.requests,
    credits = d.credits + excluded.credits,
    duration_sum = d.duration_sum + excluded.duration_sum,
    timed = d.timed + excluded.timed,
    error = case when excluded.error is not null and (d.error is null or excluded.error > d.error)
      then excluded.error else d.error end
)
select balance_after from ended`;

const STATEMENTS = {
  settle: `with ${SETTLE_SOURCE}, ${RECORD_AND_DAY}`,
  refund: `with ${REFUND_SOURCE}, ${RECORD_AND_DAY}`,
} as const;

export interface OneOffEnd {
  accountId: string;
  requestId: string;
  /** settle: charge what was reserved (nothing goes back); refund: return it all. */
  kind: keyof typeof STATEMENTS;
  amount: number;
  /** A one-off record (run-records.ts `isOneOff`): no workflow, no webhook. */
  record: RunRecord;
}

/** The balance after; throws when there is no such account (nothing is written then). */
export async function endWithRecordPg(db: Kysely<Database>, end: OneOffEnd): Promise<number> {
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(STATEMENTS[end.kind], [
      end.accountId,
      end.requestId,
      end.amount,
      Date.now(),
      ...recordValues(end.record),
    ]) as CompiledQuery<{ balance_after: number }>,
  );
  if (!rows[0]) throw new Error(`no account ${end.accountId}`);
  return Number(rows[0].balance_after);
}
