/**
 * The unpaged list of an account can be every workflow it has (10,000 are ~5 MB of JSON,
 * ~60 ms to build). Between changes it is the same text, so each node keeps the last text
 * per (account, filter) with the account's version, and answers it again while a cheap
 * aggregate over the account's rows still gives that version.
 *
 * The version is sound because nothing in a workflow row ever decreases: rows are never
 * deleted (count), every edit, rename, archive and unarchive strictly increases updated_at
 * (workflow-service.ts, workflow-store.ts), and a run only adds to credits_spent and moves
 * last_run_at forward (run-records.ts). So any change raises one of the four sums; and as
 * the version is read from the database, it holds across nodes sharing PostgreSQL.
 */
import { sql } from 'kysely';
import type { Store } from '../store/db.js';

export interface ListCacheOptions {
  /** Total bytes of cached list texts per node. Default 64 MiB; 0 disables the cache. */
  maxBytes?: number;
}

export const DEFAULT_LIST_CACHE_BYTES = 64 * 1024 * 1024;

interface Entry {
  version: string;
  text: string;
}

export class WorkflowListCache {
  private readonly maxBytes: number;
  /** Map order is recency order (oldest first). */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(options: ListCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_LIST_CACHE_BYTES;
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The cached text if the account is still at `version`. */
  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.text;
  }

  set(key: string, version: string, text: string): void {
    this.drop(key);
    // JS strings are UTF-16 in memory; the list is mostly ASCII, so length ≈ bytes / 2.
    const size = text.length * 2;
    if (size > this.maxBytes) return;
    this.entries.set(key, { version, text });
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.text.length * 2;
    this.entries.delete(key);
  }
}

/**
 * The account's version: one index-bounded aggregate over its rows, as text (PostgreSQL's
 * numeric sums would lose digits as JS numbers). Null when it cannot be had (SQLite's
 * integer sum overflows past ~5 million workflows in one account): then nothing is cached.
 */
export async function accountVersion(store: Store, accountId: string): Promise<string | null> {
  try {
    const result = await sql<{ v: string }>`
      SELECT CAST(count(*) AS TEXT) || ':' || CAST(coalesce(sum(updated_at), 0) AS TEXT) || ':' ||
        CAST(coalesce(sum(credits_spent), 0) AS TEXT) || ':' ||
        CAST(coalesce(sum(last_run_at), 0) AS TEXT) AS v
      FROM workflows WHERE account_id = ${accountId}`.execute(store.db);
    return result.rows[0]?.v ?? null;
  } catch {
    return null;
  }
}
