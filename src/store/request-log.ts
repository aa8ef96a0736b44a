/**
 * The account's request log over the `requests` table: pages newest first by keyset (the
 * last id seen), filtered by status, host, workflow, source, time and a URL substring; one
 * record with its parameters; and the overview's figures. Ids are UUIDv7 (ids.ts), so a
 * time range is an id range and every filter reads one index range (migration 011).
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { DAY_MS, type WindowTotals, windowTotals } from './request-days.js';
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

/** The overview's figures over the last `dayCount` UTC days (today included). */
export async function usageOf(
  db: Kysely<Database>,
  accountId: string,
  dayCount: number,
  now = Date.now(),
): Promise<Usage> {
  const firstDay = Math.floor(now / DAY_MS) - dayCount + 1;
  // Summed from the rollup (request-days.ts): the records themselves would be read one by
  // one (≈1 s at 500,000 records in the window).
  return summarizeUsage(await windowTotals(db, accountId, firstDay), firstDay, dayCount);
}

/** The figures from the window's totals per day and per host, whatever summed them. */
export function summarizeUsage(totals: WindowTotals, firstDay: number, dayCount: number): Usage {
  const days: UsageDay[] = [];
  for (let d = firstDay; d < firstDay + dayCount; d++) {
    days.push({
      date: new Date(d * DAY_MS).toISOString().slice(0, 10),
      credits: 0,
      requests: 0,
      failed: 0,
    });
  }
  const counts: Record<RequestStatus, number> = { success: 0, failed: 0, pending: 0 };
  for (const t of totals.days) {
    const entry = days[t.day - firstDay];
    if (entry) {
      entry.credits += t.credits;
      entry.requests += t.n;
      if (t.status === 'failed') entry.failed += t.n;
    }
    counts[t.status] += t.n;
  }
  const hosts = new Map<string, TargetFigure & { ms: number; timed: number }>();
  for (const t of totals.hosts) {
    if (t.host === '') continue;
    const host = hosts.get(t.host) ?? {
      host: t.host,
      requests: 0,
      failed: 0,
      avgMs: null,
      error: null,
      ms: 0,
      timed: 0,
    };
    host.requests += t.n;
    if (t.status === 'failed') host.failed += t.n;
    if (t.status === 'success') {
      host.ms += t.ms;
      host.timed += t.timed;
    }
    if (t.status === 'failed' && t.error && (host.error === null || t.error > host.error)) {
      host.error = t.error;
    }
    hosts.set(t.host, host);
  }
  const targets: TargetFigure[] = [...hosts.values()].map(({ ms, timed, ...t }) => ({
    ...t,
    avgMs: timed > 0 ? Math.round(ms / timed) : null,
  }));
  return {
    days,
    outcomes: counts,
    slowest: targets
      .filter((t) => t.avgMs !== null)
      .sort((a, b) => (b.avgMs ?? 0) - (a.avgMs ?? 0) || a.host.localeCompare(b.host))
      .slice(0, 5),
    failing: targets
      .filter((t) => t.failed > 0)
      .sort((a, b) => b.failed - a.failed || a.host.localeCompare(b.host))
      .slice(0, 5),
  };
}
