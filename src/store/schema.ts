/**
 * The tables, as Kysely sees them. One schema for both engines: timestamps are epoch
 * milliseconds (bigint), booleans are 0/1 integers, JSON is text. Conversions to API shapes
 * (ISO strings, real booleans, parsed JSON) happen in the repository modules, never in SQL.
 */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  credits: number;
  concurrency_limit: number;
  webhook_secret: string;
  created_at: number;
  /** The last change number given to one of the account's workflows (list-cache.ts). */
  workflow_seq: Generated<number>;
}

export interface ApiKeysTable {
  /** SHA-256 (hex) of the key: the key itself is never stored. */
  key_hash: string;
  account_id: string;
  created_at: number;
  revoked_at: number | null;
  /** The key's first characters (migration 011), to tell keys apart; null for older keys. */
  prefix: string | null;
  /** The account's name for the key (migration 017); null until given. */
  name: string | null;
  /** When the key last authenticated a request, to the minute (migration 017). */
  last_used_at: number | null;
}

/**
 * `release`: the part of a reservation a settled request did not need (a scrape that could
 * have rendered but only fetched); it returns credits without ending the reservation.
 */
export type LedgerKind = 'reserve' | 'settle' | 'refund' | 'grant' | 'release';

export interface LedgerTable {
  id: Generated<number>;
  account_id: string;
  request_id: string | null;
  kind: LedgerKind;
  amount: number;
  balance_after: number;
  created_at: number;
  /** A reservation's node (migration 013); null on other rows and on job-held reservations. */
  holder: string | null;
  /** When a held reservation is dead if still open: reserve time + budget + grace. */
  deadline_at: number | null;
}

export interface WorkflowsTable {
  id: string;
  account_id: string;
  name: string;
  /** JSON text of the normalised config. */
  config: string;
  archived: number;
  credits_spent: number;
  last_run_at: number | null;
  created_at: number;
  updated_at: number;
  /** The account's change number of this row's last change (list-cache.ts). */
  change_seq: Generated<number>;
}

export interface RequestsTable {
  id: string;
  account_id: string;
  workflow_id: string | null;
  url: string;
  status: 'success' | 'failed' | 'pending';
  status_code: number | null;
  target_status: number | null;
  output_type: string;
  render: number;
  proxy_type: string;
  proxy_country: string | null;
  credits: number;
  duration_ms: number | null;
  error: string | null;
  /** JSON text `{url, status, attempts, lastError}` or null. */
  webhook: string | null;
  created_at: number;
  /** A scheduled run's due time (epoch ms); null for every other request. */
  scheduled_for: number | null;
  /** 1 when the scheduled run stands in for runs missed while no node ran; else null. */
  catch_up: number | null;
  /** Where the scrape came from (RequestSource); null on rows older than migration 011. */
  source: string | null;
  /** The target's host name, for the request log's filter. */
  host: string | null;
  /** JSON text of the scrape's options (secrets left out). */
  params: string | null;
}

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  run_at: number;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  /** 'queued' | 'done' | 'failed' */
  state: string;
  created_at: number;
}

/** Running scrapes, so the per-account limit holds across nodes; rows expire if a node dies. */
export interface ScrapeSlotsTable {
  id: string;
  account_id: string;
  node_id: string;
  expires_at: number;
}

/** A workflow's schedule (migration 008): cron, zone and the next due time not yet enqueued. */
export interface WorkflowSchedulesTable {
  workflow_id: string;
  account_id: string;
  cron: string;
  timezone: string;
  enabled: number;
  /** Epoch ms; null while paused or disabled. */
  next_run_at: number | null;
  consecutive_failures: Generated<number>;
  /** Why the schedule disabled itself (null while it has not). */
  disabled_reason: string | null;
  last_scheduled_for: number | null;
  last_request_id: string | null;
  /** 'success' | 'failed' of the last finished run. */
  last_status: string | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  workflows: WorkflowsTable;
  requests: RequestsTable;
  jobs: JobsTable;
  scrape_slots: ScrapeSlotsTable;
  workflow_schedules: WorkflowSchedulesTable;
}
