/**
 * The list endpoint's body as JSON text. The contract's list has no pages, so one request
 * may carry every workflow of an account (10,000 are ~5 MB); building row objects in
 * JavaScript and serialising them was most of its cost. On the embedded engine SQLite
 * writes each row's JSON itself (about a third of the CPU time, see bench/workflows.ts);
 * PostgreSQL rows are serialised in JavaScript (their transfer dominates there anyway).
 * Both produce the value `JSON.stringify(rows.map(toWorkflowJson))` would (tested).
 */
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import { workflowJsonText } from './workflow-json.js';
import { type ListFilter, workflowListQuery } from './workflow-store.js';

/** Epoch ms → ISO 8601 UTC with milliseconds, in integer arithmetic (no float rounding). */
function isoSqlite(column: string): string {
  return `strftime('%Y-%m-%dT%H:%M:%S', ${column} / 1000, 'unixepoch') || printf('.%03dZ', ${column} % 1000)`;
}

/**
 * The config column is spliced in as it is: it only ever holds `JSON.stringify` of a
 * normalised config (workflow-service.ts is its only writer). Names are quoted by SQLite.
 */
const rowJsonSqlite: RawBuilder<string> = sql<string>`'{"id":' || json_quote(id) ||
  ',"userId":' || json_quote(account_id) || ',"config":' || config ||
  ',"name":' || json_quote(name) ||
  ',"lastRun":' || (CASE WHEN last_run_at IS NULL THEN 'null' ELSE '"' || ${sql.raw(isoSqlite('last_run_at'))} || '"' END) ||
  ',"creditsSpent":' || credits_spent ||
  ',"createdAt":"' || ${sql.raw(isoSqlite('created_at'))} ||
  '","updatedAt":"' || ${sql.raw(isoSqlite('updated_at'))} ||
  '","archived":' || (CASE WHEN archived <> 0 THEN 'true' ELSE 'false' END) || '}'`;

type WorkflowSelect = SelectQueryBuilder<Database, 'workflows', object>;

/** One row's JSON text with what places it in the lists (list-cache.ts). */
export interface JsonRow {
  id: string;
  createdAt: number;
  archived: boolean;
  json: string;
}

/** The JSON text of each row the query selects, in its order. */
export async function selectJsonRows(store: Store, query: WorkflowSelect): Promise<JsonRow[]> {
  if (store.dialect === 'sqlite') {
    const rows = await query
      .select(['id', 'created_at', 'archived', rowJsonSqlite.as('json')])
      .execute();
    return rows.map((row) => ({
      id: row.id,
      createdAt: Number(row.created_at),
      archived: Boolean(row.archived),
      json: row.json,
    }));
  }
  const rows = await query.selectAll().execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: Number(row.created_at),
    archived: Boolean(row.archived),
    json: workflowJsonText(row),
  }));
}

export async function listWorkflowsJson(
  store: Store,
  accountId: string,
  filter: ListFilter,
): Promise<string> {
  const rows = await selectJsonRows(store, workflowListQuery(store.db, accountId, filter));
  return `[${rows.map((row) => row.json).join(',')}]`;
}
