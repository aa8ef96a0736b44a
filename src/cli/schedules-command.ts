/**
 * `pagegrab schedules list [--json] [--account <name|id>]`: every workflow schedule in the
 * database, for the operator: its cron and zone, whether it runs, its next due time, its last
 * scheduled run, and why it disabled itself. `--json`: one array (command.ts's convention).
 */
import { parseArgs } from 'node:util';
import { findAccountByNameOrId } from '../accounts/account-store.js';
import type { Config } from '../config.js';
import { openStore } from '../store/db.js';
import { listSchedules, type ScheduleListRow } from '../store/schedules.js';
import { UsageError } from './cli-errors.js';

const USAGE = `Usage:
  pagegrab schedules list [--account <name|id>] [--json]`;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** running | paused | disabled (after failures) | archived (the workflow never runs). */
function stateOf(row: ScheduleListRow): string {
  if (Number(row.archived) === 1) return 'archived';
  if (row.enabled === 1) return 'running';
  return row.disabled_reason ? 'disabled' : 'paused';
}

function shown(row: ScheduleListRow) {
  return {
    workflowId: row.workflow_id,
    workflowName: row.workflow_name,
    accountId: row.account_id,
    cron: row.cron,
    timezone: row.timezone,
    state: stateOf(row),
    nextRunAt: row.enabled === 1 && Number(row.archived) === 0 ? iso(row.next_run_at) : null,
    lastRun:
      row.last_scheduled_for === null
        ? null
        : { scheduledFor: iso(row.last_scheduled_for), status: row.last_status },
    consecutiveFailures: Number(row.consecutive_failures),
    disabledReason: row.disabled_reason,
  };
}

export async function runSchedulesCommand(
  args: string[],
  config: Config,
  out: (line: string) => void,
): Promise<void> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals[0] !== 'list' || positionals.length > 1) {
    const what = positionals[0]
      ? `unknown schedules command "${positionals.join(' ')}"`
      : 'a command is required';
    throw new UsageError(`${what}\n${USAGE}`);
  }
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.pgPoolSize,
    connectTimeoutMs: config.pgConnectTimeoutMs,
    statementTimeoutMs: config.pgStatementTimeoutMs,
  });
  try {
    let accountId: string | undefined;
    if (values.account !== undefined) {
      const account = await findAccountByNameOrId(store.db, values.account);
      if (!account) throw new UsageError(`No account named or with id "${values.account}"`);
      accountId = account.id;
    }
    const schedules = (await listSchedules(store.db, accountId)).map(shown);
    if (values.json) return void out(JSON.stringify(schedules));
    for (const s of schedules) {
      const last = s.lastRun ? `${s.lastRun.scheduledFor} ${s.lastRun.status}` : '-';
      out(
        `${s.workflowId}  ${s.workflowName}  "${s.cron}" ${s.timezone}  ${s.state}  ` +
          `next=${s.nextRunAt ?? '-'}  last=${last}  failures=${s.consecutiveFailures}` +
          (s.disabledReason ? `  reason="${s.disabledReason}"` : ''),
      );
    }
  } finally {
    await store.close();
  }
}

function parseCommandLine(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { account: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
}
