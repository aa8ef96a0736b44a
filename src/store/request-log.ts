/**
 * The account's request log over the `requests` table: pages newest first by keyset (the
 * last id seen), filtered by status, host, workflow, source, time and a URL substring; one
 * record with its parameters; and the overview's figures. Ids are UUIDv7 (ids.ts), so a
 * time range is an id range and every filter reads one index range (migration 011).
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, RequestsTable } from './schema.js';

export type RequestStatus = RequestsTable['status'];

export interface RequestLogFilter {
  status?: RequestStatus;
  host?: string;
  workflowId?: string;
  source?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
  /** A case-insensitive substring of the URL. */
  search?: string;
  /** Only records older than this id (the previous page's last). */
  before?: string;
  limit: number;
}

export type RequestRow = RequestsTable;

/** The smallest UUIDv7 of millisecond `ms`: ids at or after that instant sort at or above it. */
export function idAtTime(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

type RequestsQuery = SelectQueryBuilder<Database, 'requests', object>;

function filtered(db: Kysely<Database>, accountId: string, filter: RequestLogFilter) {
  let query: RequestsQuery = db.selectFrom('requests').where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.host) query = query.where('host', '=', filter.host);
  if (filter.workflowId) query = query.where('workflow_id', '=', filter.workflowId);
  if (filter.source) {
    // Rows older than migration 011 have no source: they were workflow runs or webhooks.
    query =
      filter.source === 'workflow'
        ? query.where((eb) =>
            eb.or([
              eb('source', '=', 'workflow'),
              eb.and([eb('source', 'is', null), eb('workflow_id', 'is not', null)]),
            ]),
          )
        : query.where('source', '=', filter.source);
  }
  if (filter.from !== undefined) query = query.where('id', '>=', idAtTime(filter.from));
  if (filter.to !== undefined) query = query.where('id', '<', idAtTime(filter.to));
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(url) like ${pattern} escape '\\'`);
  }
  return query;
}

/** A page, newest first: at most `limit` rows and whether more follow. */
export async function listRequests(
  db: Kysely<Database>,
  accountId: string,
  filter: RequestLogFilter,
): Promise<{ rows: RequestRow[]; more: boolean }> {
  const rows = await filtered(db, accountId, filter)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const more = rows.length > filter.limit;
  return { rows: more ? rows.slice(0, filter.limit) : rows, more };
}

export async function findRequest(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<(RequestRow & { workflow_name: string | null }) | null> {
  const row = await db
    .selectFrom('requests')
    .leftJoin('workflows', 'workflows.id', 'requests.workflow_id')
    .selectAll('requests')
    .select('workflows.name as workflow_name')
    .where('requests.id', '=', id)
    .where('requests.account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

export interface UsageDay {
  /** UTC day, `YYYY-MM-DD`. */
  date: string;
  credits: number;
  requests: number;
  failed: number;
}

export interface TargetFigure {
  host: string;
  requests: number;
  failed: number;
  /** Mean duration of its successful scrapes. */
  avgMs: number | null;
  /** One of its errors (an example, not necessarily the latest). */
  error: string | null;
}

export interface Usage {
  days: UsageDay[];
  outcomes: Record<RequestStatus, number>;
  slowest: TargetFigure[];
  failing: TargetFigure[];
}

const DAY_MS = 24 * 3600_000;

/** The overview's figures over the last `dayCount` UTC days (today included). */
export async function usageOf(
  db: Kysely<Database>,
  accountId: string,
  dayCount: number,
  now = Date.now(),
): Promise<Usage> {
  const firstDay = Math.floor(now / DAY_MS) - dayCount + 1;
  const since = db
    .selectFrom('requests')
    .where('account_id', '=', accountId)
    .where('id', '>=', idAtTime(firstDay * DAY_MS));
  // Inlined, not bound: PostgreSQL must see the same expression in SELECT and GROUP BY.
  const day = sql<number>`created_at / ${sql.raw(String(DAY_MS))}`;
  const failedCount = sql<number>`sum(case when status = 'failed' then 1 else 0 end)`;
  const [perDay, outcomes, perHost] = await Promise.all([
    since
      .select([
        day.as('day'),
        sql<number>`sum(credits)`.as('credits'),
        sql<number>`count(*)`.as('requests'),
        failedCount.as('failed'),
      ])
      .groupBy(day)
      .execute(),
    since
      .select(['status', sql<number>`count(*)`.as('n')])
      .groupBy('status')
      .execute(),
    since
      .where('host', 'is not', null)
      .select([
        'host',
        sql<number>`count(*)`.as('requests'),
        failedCount.as('failed'),
        sql<number | null>`avg(case when status = 'success' then duration_ms end)`.as('avg_ms'),
        sql<string | null>`max(error)`.as('error'),
      ])
      .groupBy('host')
      .execute(),
  ]);
  const byDay = new Map(perDay.map((row) => [Number(row.day), row]));
  const days: UsageDay[] = [];
  for (let d = firstDay; d < firstDay + dayCount; d++) {
    const row = byDay.get(d);
    days.push({
      date: new Date(d * DAY_MS).toISOString().slice(0, 10),
      credits: Number(row?.credits ?? 0),
      requests: Number(row?.requests ?? 0),
      failed: Number(row?.failed ?? 0),
    });
  }
  const counts: Record<RequestStatus, number> = { success: 0, failed: 0, pending: 0 };
  for (const row of outcomes) counts[row.status] = Number(row.n);
  const targets: TargetFigure[] = perHost.map((row) => ({
    host: row.host ?? '',
    requests: Number(row.requests),
    failed: Number(row.failed),
    avgMs: row.avg_ms === null ? null : Math.round(Number(row.avg_ms)),
    error: row.error,
  }));
  return {
    days,
    outcomes: counts,
    slowest: targets
      .filter((t) => t.avgMs !== null)
      .sort((a, b) => (b.avgMs ?? 0) - (a.avgMs ?? 0))
      .slice(0, 5),
    failing: targets
      .filter((t) => t.failed > 0)
      .sort((a, b) => b.failed - a.failed)
      .slice(0, 5),
  };
}
