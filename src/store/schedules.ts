/**
 * The `workflow_schedules` table (migration 008) and the scheduled-run side of `requests`.
 * Every read the scheduler makes on its hot path walks the `next_run_at` index: due rows in
 * batches, and the earliest next due time to sleep until.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Database, WorkflowSchedulesTable } from './schema.js';

export type ScheduleRow = Selectable<WorkflowSchedulesTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** A schedule with what the answers and the CLI show of its workflow. */
export interface ScheduleListRow extends ScheduleRow {
  workflow_name: string;
  archived: number;
}

/** A due schedule as the scheduler claims it. */
export interface DueSchedule {
  workflow_id: string;
  account_id: string;
  cron: string;
  timezone: string;
  next_run_at: number;
  archived: number;
}

export async function getSchedule(
  db: Db,
  accountId: string,
  workflowId: string,
): Promise<ScheduleRow | undefined> {
  return db
    .selectFrom('workflow_schedules')
    .selectAll()
    .where('workflow_id', '=', workflowId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function saveSchedule(db: Db, row: ScheduleRow): Promise<void> {
  const { workflow_id, ...rest } = row;
  await db
    .insertInto('workflow_schedules')
    .values(row)
    .onConflict((oc) => oc.column('workflow_id').doUpdateSet(rest))
    .execute();
}

/** True when there was one to delete. */
export async function deleteSchedule(
  db: Db,
  accountId: string,
  workflowId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('workflow_schedules')
    .where('workflow_id', '=', workflowId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** An account's schedules (or every account's, for the operator), by workflow id. */
export async function listSchedules(db: Db, accountId?: string): Promise<ScheduleListRow[]> {
  let query = db
    .selectFrom('workflow_schedules as s')
    .innerJoin('workflows as w', 'w.id', 's.workflow_id')
    .selectAll('s')
    .select(['w.name as workflow_name', 'w.archived']);
  if (accountId !== undefined) query = query.where('s.account_id', '=', accountId);
  return query.orderBy('s.workflow_id').execute();
}

/**
 * Up to `limit` schedules due at `now`, earliest first, locked for the caller's transaction.
 * On PostgreSQL SKIP LOCKED lets the nodes take disjoint batches without waiting; SQLite has
 * one writer, so its transaction alone makes the batch the caller's.
 */
export async function claimDueSchedules(
  trx: Transaction<Database>,
  dialect: Dialect,
  now: number,
  limit: number,
): Promise<DueSchedule[]> {
  let query = trx
    .selectFrom('workflow_schedules as s')
    .innerJoin('workflows as w', 'w.id', 's.workflow_id')
    .select([
      's.workflow_id',
      's.account_id',
      's.cron',
      's.timezone',
      's.next_run_at',
      'w.archived',
    ])
    .where('s.next_run_at', '<=', now)
    .orderBy('s.next_run_at')
    .limit(limit);
  if (dialect === 'postgres') query = query.forUpdate('s').skipLocked();
  const rows = await query.execute();
  return rows.map((row) => ({
    ...row,
    next_run_at: Number(row.next_run_at),
    archived: Number(row.archived),
  }));
}

export async function setNextRun(
  db: Db,
  workflowId: string,
  nextRunAt: number | null,
): Promise<void> {
  await db
    .updateTable('workflow_schedules')
    .set({ next_run_at: nextRunAt })
    .where('workflow_id', '=', workflowId)
    .execute();
}

/** The earliest pending due time of any schedule (one index read), or null. */
export async function earliestNextRun(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('workflow_schedules')
    .select('next_run_at')
    .where('next_run_at', 'is not', null)
    .orderBy('next_run_at')
    .limit(1)
    .executeTakeFirst();
  return row?.next_run_at == null ? null : Number(row.next_run_at);
}

/** The record a due time already produced, if any. */
export async function findScheduledRecord(
  db: Db,
  workflowId: string,
  scheduledFor: number,
): Promise<string | null> {
  const row = await db
    .selectFrom('requests')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .where('scheduled_for', '=', scheduledFor)
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface ScheduledOutcome {
  workflowId: string;
  requestId: string;
  scheduledFor: number;
  failed: boolean;
  /** Consecutive failures that disable the schedule (SCHEDULE_DISABLE_AFTER_FAILURES). */
  disableAfter: number;
  /** The failed run's answer, for the reason the schedule shows. */
  error: string | null;
  statusCode: number | null;
}

/**
 * Counts a finished scheduled run (in the transaction that writes its record): a success
 * resets the count of consecutive failures; the failure that reaches the limit disables the
 * schedule and says why.
 */
export async function countScheduledOutcome(db: Db, outcome: ScheduledOutcome): Promise<void> {
  await db
    .updateTable('workflow_schedules')
    .set((eb) => ({
      consecutive_failures: outcome.failed ? eb('consecutive_failures', '+', 1) : eb.val(0),
      last_scheduled_for: outcome.scheduledFor,
      last_request_id: outcome.requestId,
      last_status: outcome.failed ? 'failed' : 'success',
    }))
    .where('workflow_id', '=', outcome.workflowId)
    .execute();
  if (!outcome.failed) return;
  const last = [outcome.statusCode, outcome.error].filter((part) => part !== null).join(' ');
  await db
    .updateTable('workflow_schedules')
    .set({
      enabled: 0,
      next_run_at: null,
      disabled_reason: `Disabled after ${outcome.disableAfter} consecutive failed runs (last: ${last})`,
    })
    .where('workflow_id', '=', outcome.workflowId)
    .where('enabled', '=', 1)
    .where('consecutive_failures', '>=', outcome.disableAfter)
    .execute();
}

/** True while the workflow is active and its schedule exists and is enabled. */
export async function isScheduleRunnable(db: Db, workflowId: string): Promise<boolean> {
  const row = await db
    .selectFrom('workflow_schedules as s')
    .innerJoin('workflows as w', 'w.id', 's.workflow_id')
    .select(['s.enabled', 'w.archived'])
    .where('s.workflow_id', '=', workflowId)
    .executeTakeFirst();
  return row !== undefined && Number(row.enabled) === 1 && Number(row.archived) === 0;
}

/** The caller's workflow's archived flag, or undefined when it is not theirs. */
export async function findWorkflowArchived(
  db: Db,
  accountId: string,
  workflowId: string,
): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('workflows')
    .select('archived')
    .where('id', '=', workflowId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.archived) === 1;
}
