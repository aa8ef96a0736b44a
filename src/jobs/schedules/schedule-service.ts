/**
 * A workflow's schedule, as the API reads and writes it (GET, PUT, DELETE
 * /api/workflow/{id}/schedule). Checks run in contract 1.2's order: the workflow among the
 * caller's own (404), its state (archived: 400 on PUT), then the body. The workflow object
 * itself is untouched: a schedule is its own resource, and it says why it stopped when it
 * disabled itself.
 */
import { type Static, Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { inTransaction } from '../../store/in-transaction.js';
import {
  deleteSchedule,
  findWorkflowArchived,
  getSchedule,
  listSchedules,
  type ScheduleRow,
  saveSchedule,
} from '../../store/schedules.js';
import { type CronCache, parseCronSchedule, type ScheduleRules } from './cron-schedule.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, milliseconds' });

export const ScheduleSchema = Type.Object(
  {
    workflowId: Type.String(),
    cron: Type.String({
      description: 'Five fields (minute hour day-of-month month day-of-week) or a shorthand',
    }),
    timezone: Type.String({ description: 'IANA time zone the cron is read in' }),
    enabled: Type.Boolean({ description: 'false: paused (by the user, or after failures)' }),
    nextRuns: Type.Array(Timestamp, {
      description: 'The next due times; empty while paused or while the workflow is archived',
    }),
    lastRun: Type.Union(
      [
        Type.Object({
          scheduledFor: Timestamp,
          requestId: Type.String({ description: 'Its request record' }),
          status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
        }),
        Type.Null(),
      ],
      { description: 'The last scheduled run that finished' },
    ),
    consecutiveFailures: Type.Integer(),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the schedule disabled itself; null otherwise',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'WorkflowSchedule', additionalProperties: false },
);
export type ScheduleJson = Static<typeof ScheduleSchema>;

export const ScheduleBodySchema = Type.Object(
  {
    cron: Type.Optional(Type.String({ examples: ['0 9 * * 1-5', '@hourly'] })),
    timezone: Type.Optional(Type.String({ default: 'UTC', examples: ['Europe/Berlin'] })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    additionalProperties: false,
    description:
      'Sets the schedule. cron is required for a new schedule; on an existing one, missing fields keep their values. Re-enabling clears a self-disable.',
  },
);

export const SchedulePreviewSchema = Type.Object({
  cron: Type.String({ description: 'As it would be stored: trimmed, fields single-spaced' }),
  timezone: Type.String({ description: "The zone's canonical IANA name" }),
  nextRuns: Type.Array(Type.String({ format: 'date-time' })),
});
export type SchedulePreviewJson = Static<typeof SchedulePreviewSchema>;

export interface ScheduleServiceOptions {
  rules: ScheduleRules;
  /** Compiled expressions, shared with the scheduler. */
  crons: CronCache;
  /** Due times shown in answers. Default 5. */
  nextRunsShown?: number;
  /** Epoch ms. Default Date.now. */
  now?: () => number;
  /** Told after a change (wakes this node's scheduler). */
  onChange?: () => void;
}

const FIELDS = new Set(['cron', 'timezone', 'enabled']);
const iso = (ms: number) => new Date(ms).toISOString();

function parseBody(body: unknown): { cron?: unknown; timezone?: unknown; enabled?: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw appError('BAD_REQUEST', 'Request body must be a JSON object');
  }
  const input = body as Record<string, unknown>;
  if (Object.keys(input).some((key) => !FIELDS.has(key))) throw appError('ONLY_SCHEDULE_FIELDS');
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean') {
    throw appError('INVALID_ENABLED');
  }
  return input as { cron?: unknown; timezone?: unknown; enabled?: boolean };
}

export class ScheduleService {
  private readonly now: () => number;
  private readonly shown: number;

  constructor(
    private readonly store: Store,
    private readonly options: ScheduleServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.shown = options.nextRunsShown ?? 5;
  }

  async get(accountId: string, workflowId: string): Promise<ScheduleJson> {
    const archived = await this.workflow(accountId, workflowId);
    const row = await getSchedule(this.store.db, accountId, workflowId);
    if (!row) throw appError('SCHEDULE_NOT_FOUND');
    return this.toJson(row, archived);
  }

  /** Every schedule of the account (the dashboard's list). */
  async list(accountId: string): Promise<ScheduleJson[]> {
    const rows = await listSchedules(this.store.db, accountId);
    return rows.map(({ workflow_name: _name, archived, ...row }) =>
      this.toJson(row, Number(archived) === 1),
    );
  }

  /**
   * A schedule checked exactly as a save would check it (same rules, same texts), and its
   * next due times, without saving anything: the console's preview while the user types.
   */
  preview(cron: unknown, timezone: unknown): SchedulePreviewJson {
    const schedule = parseCronSchedule(cron, timezone ?? 'UTC', this.options.rules, this.now());
    return {
      cron: schedule.cron,
      timezone: schedule.timezone,
      nextRuns: schedule.nextRuns(this.now(), this.shown).map(iso),
    };
  }

  async put(accountId: string, workflowId: string, body: unknown): Promise<ScheduleJson> {
    const { db } = this.store;
    const archived = await this.workflow(accountId, workflowId);
    if (archived) throw appError('WORKFLOW_ARCHIVED');
    const input = parseBody(body);
    const now = this.now();
    const saved = await inTransaction(db, async (trx) => {
      const before = await getSchedule(trx, accountId, workflowId);
      const schedule = parseCronSchedule(
        input.cron ?? before?.cron,
        input.timezone ?? before?.timezone ?? 'UTC',
        this.options.rules,
        now,
      );
      const enabled = input.enabled ?? (before ? before.enabled === 1 : true);
      const same =
        before !== undefined &&
        before.enabled === 1 &&
        enabled &&
        before.cron === schedule.cron &&
        before.timezone === schedule.timezone;
      const row: ScheduleRow = {
        workflow_id: workflowId,
        account_id: accountId,
        cron: schedule.cron,
        timezone: schedule.timezone,
        enabled: enabled ? 1 : 0,
        // Unchanged: keep a due time not enqueued yet. Otherwise from now on: nothing missed
        // while paused is replayed.
        next_run_at: !enabled ? null : same ? before.next_run_at : schedule.nextAfter(now),
        // A new or re-enabled schedule starts counting afresh.
        consecutive_failures: same ? Number(before.consecutive_failures) : 0,
        disabled_reason: enabled ? null : (before?.disabled_reason ?? null),
        last_scheduled_for: before?.last_scheduled_for ?? null,
        last_request_id: before?.last_request_id ?? null,
        last_status: before?.last_status ?? null,
        created_at: before?.created_at ?? now,
        updated_at: Math.max(now, (before?.updated_at ?? 0) + 1),
      };
      await saveSchedule(trx, row);
      return row;
    });
    this.options.onChange?.();
    return this.toJson(saved, false);
  }

  /** Removes the schedule; answers it as it was, with no next runs. */
  async remove(accountId: string, workflowId: string): Promise<ScheduleJson> {
    await this.workflow(accountId, workflowId);
    const { db } = this.store;
    const row = await inTransaction(db, async (trx) => {
      const before = await getSchedule(trx, accountId, workflowId);
      if (!before) throw appError('SCHEDULE_NOT_FOUND');
      await deleteSchedule(trx, accountId, workflowId);
      return before;
    });
    return { ...this.toJson(row, false), enabled: false, nextRuns: [] };
  }

  private async workflow(accountId: string, workflowId: string): Promise<boolean> {
    const archived = await findWorkflowArchived(this.store.db, accountId, workflowId);
    if (archived === undefined) throw appError('WORKFLOW_NOT_FOUND');
    return archived;
  }

  private toJson(row: ScheduleRow, archived: boolean): ScheduleJson {
    const enabled = row.enabled === 1;
    let nextRuns: string[] = [];
    if (enabled && !archived) {
      const schedule = this.options.crons.get(row.cron, row.timezone);
      const pending = row.next_run_at === null ? null : Number(row.next_run_at);
      const from = pending === null ? this.now() : Math.min(pending - 1, this.now());
      nextRuns = schedule.nextRuns(from, this.shown).map(iso);
    }
    const last =
      row.last_scheduled_for === null || row.last_request_id === null
        ? null
        : {
            scheduledFor: iso(Number(row.last_scheduled_for)),
            requestId: row.last_request_id,
            status: row.last_status === 'success' ? ('success' as const) : ('failed' as const),
          };
    return {
      workflowId: row.workflow_id,
      cron: row.cron,
      timezone: row.timezone,
      enabled,
      nextRuns,
      lastRun: last,
      consecutiveFailures: Number(row.consecutive_failures),
      disabledReason: row.disabled_reason,
      createdAt: iso(Number(row.created_at)),
      updatedAt: iso(Number(row.updated_at)),
    };
  }
}
