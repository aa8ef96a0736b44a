/**
 * Rebuilding the unpaged list after a change (list-cache.ts missed) without rebuilding
 * every row: each row's JSON text is kept with its stamp (updated_at, credits_spent,
 * last_run_at: every change to a row moves one forward), so a rebuild reads only the
 * stamps in list order and the JSON of the rows whose stamp moved. A run or an edit then
 * costs the next list one small query instead of serialising every workflow again.
 */
import type { Store } from '../store/db.js';
import { type JsonRow, selectJsonRows, stampOf } from './workflow-list-json.js';
import { type ListFilter, workflowListQuery } from './workflow-store.js';

export interface RowTextCacheOptions {
  /** Total bytes of row texts kept per node. Default 64 MiB; 0 disables reuse. */
  maxBytes?: number;
}

/** Lookups by id with insertion-order eviction (cheap per hit: no reordering). */
export class RowTextCache {
  private readonly maxBytes: number;
  private readonly rows = new Map<string, { stamp: string; json: string }>();
  private bytes = 0;

  constructor(options: RowTextCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(id: string, stamp: string): string | undefined {
    const row = this.rows.get(id);
    return row && row.stamp === stamp ? row.json : undefined;
  }

  set(row: JsonRow): void {
    const old = this.rows.get(row.id);
    if (old) {
      this.bytes -= old.json.length * 2;
      this.rows.delete(row.id);
    }
    this.rows.set(row.id, { stamp: row.stamp, json: row.json });
    this.bytes += row.json.length * 2;
    for (const [id, oldest] of this.rows) {
      if (this.bytes <= this.maxBytes) break;
      this.bytes -= oldest.json.length * 2;
      this.rows.delete(id);
    }
  }
}

/** Past this share of changed rows, one ordered query beats lookups by id. */
const REUSE_THRESHOLD = 0.25;
const ID_CHUNK = 500;

export async function listWorkflowsJsonReusing(
  store: Store,
  accountId: string,
  filter: ListFilter,
  cache: RowTextCache,
): Promise<string> {
  const stamps = await workflowListQuery(store.db, accountId, filter)
    .select(['id', 'updated_at', 'credits_spent', 'last_run_at'])
    .execute();
  const texts: string[] = new Array(stamps.length);
  const missing = new Map<string, number>();
  stamps.forEach((row, index) => {
    const json = cache.get(row.id, stampOf(row));
    if (json === undefined) missing.set(row.id, index);
    else texts[index] = json;
  });
  if (missing.size > stamps.length * REUSE_THRESHOLD) {
    const rows = await selectJsonRows(store, workflowListQuery(store.db, accountId, filter));
    for (const row of rows) cache.set(row);
    return `[${rows.map((row) => row.json).join(',')}]`;
  }
  const ids = [...missing.keys()];
  for (let start = 0; start < ids.length; start += ID_CHUNK) {
    const chunk = ids.slice(start, start + ID_CHUNK);
    const query = store.db.selectFrom('workflows').where('id', 'in', chunk);
    for (const row of await selectJsonRows(store, query)) {
      // A row changed after the stamps were read is newer still: fine to answer, and its
      // stored stamp is its own, so the next rebuild reads it again only if it moves again.
      const index = missing.get(row.id);
      if (index !== undefined) texts[index] = row.json;
      cache.set(row);
    }
  }
  return `[${texts.join(',')}]`;
}
