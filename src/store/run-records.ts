/**
 * What a scrape leaves behind: one `requests` row per scrape that passed validation (every
 * door and job: the account's request log), and for workflow runs the workflow's lastRun and creditsSpent, written in the
 * same transaction as the credit settlement so that creditsSpent always equals the sum of the
 * workflow's records.
 */
import type { Kysely } from 'kysely';
import { appError } from '../errors.js';
import { preparedQuery } from './prepared-query.js';
import { countInDay } from './request-days.js';
import { countScheduledOutcome } from './schedules.js';
import type { Database } from './schema.js';
import { nextChangeSeq } from './workflow-change-seq.js';

export interface WebhookState {
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

/** What makes a run a scheduled one: its due time, and whether it stands in for missed ones. */
export interface ScheduledRun {
  /** The due time (epoch ms) this run is for. */
  scheduledFor: number;
  /** True when it is the one run made up for due times missed while no node ran. */
  catchUp: boolean;
  /** SCHEDULE_DISABLE_AFTER_FAILURES when the run was started. */
  disableAfter: number;
}

export interface RunRecord {
  id: string;
  accountId: string;
  workflowId: string | null;
  url: string;
  status: 'success' | 'failed' | 'pending';
  statusCode: number | null;
  targetStatus: number | null;
  outputType: string;
  render: boolean;
  proxyType: string;
  proxyCountry: string | null;
  credits: number;
  durationMs: number | null;
  error: string | null;
  webhook: WebhookState | null;
  createdAt: number;
  /** Set on a scheduled run's record only. */
  schedule?: ScheduledRun | null;
  /** Where it came from (scrape/types.ts RequestSource). */
  source: string;
  host: string | null;
  /** JSON text of the options, secrets left out. */
  params: string;
}

/** The saved config of a workflow the caller may run (404 / 400 per contract 1.2). */
export async function loadWorkflowForRun(
  db: Kysely<Database>,
  accountId: string,
  workflowId: string,
): Promise<unknown> {
  const row = await db
    .selectFrom('workflows')
    .select(['config', 'archived'])
    .where('id', '=', workflowId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw appError('WORKFLOW_NOT_FOUND');
  if (row.archived) throw appError('WORKFLOW_ARCHIVED');
  return JSON.parse(row.config) as unknown;
}

function toRow(record: RunRecord) {
  return {
    id: record.id,
    account_id: record.accountId,
    workflow_id: record.workflowId,
    url: record.url,
    status: record.status,
    status_code: record.statusCode,
    target_status: record.targetStatus,
    output_type: record.outputType,
    render: record.render ? 1 : 0,
    proxy_type: record.proxyType,
    proxy_country: record.proxyCountry,
    credits: record.credits,
    duration_ms: record.durationMs,
    error: record.error,
    webhook: record.webhook ? JSON.stringify(record.webhook) : null,
    created_at: record.createdAt,
    scheduled_for: record.schedule?.scheduledFor ?? null,
    catch_up: record.schedule ? (record.schedule.catchUp ? 1 : 0) : null,
    source: record.source,
    host: record.host,
    params: record.params,
  };
}

type Row = ReturnType<typeof toRow>;

const COLUMNS = [
  'id',
  'account_id',
  'workflow_id',
  'url',
  'status',
  'status_code',
  'target_status',
  'output_type',
  'render',
  'proxy_type',
  'proxy_country',
  'credits',
  'duration_ms',
  'error',
  'webhook',
  'created_at',
  'source',
  'host',
  'params',
] as const satisfies readonly (keyof Row)[];

/** A one-off scrape's record (no workflow, no webhook) is written once, by one insert. */
export function isOneOff(record: RunRecord): boolean {
  return !record.workflowId && !record.webhook;
}

/** The `requests` columns of a one-off record and its values in their order. */
export const RECORD_COLUMNS: readonly string[] = COLUMNS;
export function recordValues(record: RunRecord): unknown[] {
  const row = toRow(record);
  return COLUMNS.map((column) => row[column]);
}

/** Every scrape runs it (in the settle's transaction): built once per dialect. */
const insertOneOff = preparedQuery((db, ...values: unknown[]) =>
  db
    .insertInto('requests')
    .values(Object.fromEntries(COLUMNS.map((column, index) => [column, values[index]])) as Row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id'),
);

/**
 * Inserts the record, or completes a pending one (webhook runs), and updates the workflow.
 * Saving the same finished record twice (a retried job) adds its credits once: the workflow
 * gains the difference from what the row already counted. lastRun only moves forward, so
 * runs that finish out of order leave the newest start.
 */
export async function saveRunRecord(db: Kysely<Database>, record: RunRecord): Promise<void> {
  const row = toRow(record);
  // A one-off scrape without a webhook is written once, when it settles: one insert (a
  // settle repeated by a retried job keeps the first record, as its ledger does).
  // The day's rollup (request-days.ts) counts it only if it was inserted.
  if (isOneOff(record)) {
    const inserted = await db.executeQuery(
      insertOneOff(db, ...COLUMNS.map((column) => row[column])),
    );
    if (inserted.rows.length > 0) await countInDay(db, row, 1);
    return;
  }
  const { id, ...rest } = row;
  const before = await db
    .selectFrom('requests')
    .select(['account_id', 'created_at', 'host', 'status', 'credits', 'duration_ms', 'error'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (before) {
    // Rewritten (a pending record settling, a retried job): its old figures leave its day.
    await countInDay(db, before, -1);
    await db.updateTable('requests').set(rest).where('id', '=', id).execute();
  } else await db.insertInto('requests').values(row).execute();
  await countInDay(db, row, 1);
  if (!record.workflowId || record.status === 'pending') return;
  const counted = before && before.status !== 'pending' ? Number(before.credits) : 0;
  const delta = record.credits - counted;
  const changeSeq = await nextChangeSeq(db, record.accountId);
  await db
    .updateTable('workflows')
    .set((eb) => ({
      change_seq: changeSeq,
      last_run_at: eb
        .case()
        .when(eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<', record.createdAt)]))
        // eb.val: Kysely inlines a bare number in THEN into the SQL text, which made every
        // run a distinct statement (filling the prepared-statement cache with one-offs).
        .then(eb.val(record.createdAt))
        .else(eb.ref('last_run_at'))
        .end(),
      credits_spent: eb('credits_spent', '+', delta),
    }))
    .where('id', '=', record.workflowId)
    .execute();
  // A scheduled run's outcome counts once, when its record first finishes.
  if (record.schedule && (!before || before.status === 'pending')) {
    await countScheduledOutcome(db, {
      workflowId: record.workflowId,
      requestId: record.id,
      scheduledFor: record.schedule.scheduledFor,
      failed: record.status === 'failed',
      disableAfter: record.schedule.disableAfter,
      error: record.error,
      statusCode: record.statusCode,
    });
  }
}

export async function setWebhookState(
  db: Kysely<Database>,
  requestId: string,
  state: WebhookState,
): Promise<void> {
  await db
    .updateTable('requests')
    .set({ webhook: JSON.stringify(state) })
    .where('id', '=', requestId)
    .execute();
}
