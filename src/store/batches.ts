/**
 * The `batches` table (migration 007): one Firecrawl batch scrape, its counters and its end.
 * Its pages are in batches-pages.ts. Counters move in the transaction that ends a page, and
 * the batch row's UPDATE is the first write there, so on PostgreSQL the ends of one batch's
 * pages queue behind each other on its row lock and each sees the previous one's count.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type BatchStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';
/** A batch scrape's list is given; a crawl's grows as its pages are read (migration 009). */
export type BatchKind = 'batch' | 'crawl';

export interface BatchesTable {
  id: string;
  account_id: string;
  kind: BatchKind;
  version: string;
  status: BatchStatus;
  /** JSON text of the scrape options as the caller sent them. */
  options: string;
  /** JSON text of the webhook, or null. */
  webhook: string | null;
  /** The service's address as the caller reached it, for links in results. */
  base_url: string;
  lanes: number;
  total: number;
  /** Pages that ended done or failed (cancelled ones never ran). */
  ended: number;
  credits_used: number;
  error: string | null;
  created_at: number;
  expires_at: number;
}

/** `blocked`: a crawl's page that robots.txt disallows (never scraped nor counted). */
/**
 * `blocked`: robots.txt keeps a crawl from it; `redirected`: a crawl's URL whose content is
 * another row's (a redirect led there, or here from a page already scraped): neither is a
 * page of the crawl.
 */
export type PageState =
  | 'queued'
  | 'running'
  | 'done'
  | 'failed'
  | 'cancelled'
  | 'blocked'
  | 'redirected';

/** One URL of a batch (batches-pages.ts reads and writes it). */
export interface BatchPagesTable {
  id: string;
  batch_id: string;
  /** Position in the caller's list. */
  idx: number;
  url: string;
  state: PageState;
  /** The lane running it (its job holds the page while state is `running`). */
  lane: number | null;
  request_id: string | null;
  /** JSON text of the reserved ScrapePlan, once reserved. */
  plan: string | null;
  /** JSON text of what the scrape produced, stored before it is settled. */
  result: string | null;
  /** The order in which the page ended among its batch's pages (1-based). */
  seq: number | null;
  credits: number;
  error_code: string | null;
  error: string | null;
  ended_at: number | null;
  /** A crawl's frontier (migration 009); null or 0 for a batch's pages. */
  norm_url: string | null;
  host: string | null;
  depth: number;
  not_before: number | null;
  retries: number;
}

export type WithBatches = Database & { batches: BatchesTable; batch_pages: BatchPagesTable };

export function batchTables(db: Kysely<Database>): Kysely<WithBatches> {
  return db.withTables<{ batches: BatchesTable; batch_pages: BatchPagesTable }>();
}

export interface Batch {
  id: string;
  accountId: string;
  kind: BatchKind;
  version: string;
  status: BatchStatus;
  options: string;
  webhook: string | null;
  baseUrl: string;
  lanes: number;
  total: number;
  ended: number;
  creditsUsed: number;
  error: string | null;
  createdAt: number;
  expiresAt: number;
}

function toBatch(row: BatchesTable): Batch {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind === 'crawl' ? 'crawl' : 'batch',
    version: row.version,
    status: row.status,
    options: row.options,
    webhook: row.webhook,
    baseUrl: row.base_url,
    lanes: Number(row.lanes),
    total: Number(row.total),
    ended: Number(row.ended),
    creditsUsed: Number(row.credits_used),
    error: row.error,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** Rows per INSERT: well inside SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 200;

/** Stores the batch and one queued page per URL (positions 0..n-1); call within a transaction. */
export async function insertBatch(
  db: Kysely<Database>,
  batch: Omit<Batch, 'ended' | 'creditsUsed' | 'error' | 'kind'> & { kind?: BatchKind },
  pages: { id: string; url: string }[],
): Promise<void> {
  const t = batchTables(db);
  await t
    .insertInto('batches')
    .values({
      id: batch.id,
      account_id: batch.accountId,
      kind: batch.kind ?? 'batch',
      version: batch.version,
      status: batch.status,
      options: batch.options,
      webhook: batch.webhook,
      base_url: batch.baseUrl,
      lanes: batch.lanes,
      total: batch.total,
      ended: 0,
      credits_used: 0,
      error: null,
      created_at: batch.createdAt,
      expires_at: batch.expiresAt,
    })
    .execute();
  for (let start = 0; start < pages.length; start += INSERT_CHUNK) {
    const rows = pages.slice(start, start + INSERT_CHUNK).map((page, i) => ({
      id: page.id,
      batch_id: batch.id,
      idx: start + i,
      url: page.url,
      state: 'queued' as const,
      credits: 0,
      depth: 0,
      retries: 0,
    }));
    await t.insertInto('batch_pages').values(rows).execute();
  }
}

export async function getBatch(db: Kysely<Database>, id: string): Promise<Batch | null> {
  const row = await batchTables(db)
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toBatch(row) : null;
}

/**
 * Ends a running batch as cancelled or failed; its queued pages are never run (they become
 * `cancelled`). Pages already running finish. False when the batch had already ended.
 * Call within a transaction.
 */
export async function stopBatch(
  db: Kysely<Database>,
  id: string,
  status: 'cancelled' | 'failed',
  error: string | null,
): Promise<boolean> {
  const t = batchTables(db);
  const stopped = await t
    .updateTable('batches')
    .set({ status, error })
    .where('id', '=', id)
    .where('status', '=', 'scraping')
    .executeTakeFirst();
  if (Number(stopped.numUpdatedRows) === 0) return false;
  await t
    .updateTable('batch_pages')
    .set({ state: 'cancelled' })
    .where('batch_id', '=', id)
    .where('state', '=', 'queued')
    .execute();
  return true;
}

/**
 * Counts one ended page (and what it was charged) on its batch; returns the batch after.
 * Its `ended` is the page's place in the order pages ended.
 */
export async function countPageEnd(
  db: Kysely<Database>,
  id: string,
  credits: number,
): Promise<Pick<Batch, 'ended' | 'total' | 'status'>> {
  const row = await batchTables(db)
    .updateTable('batches')
    .set((eb) => ({
      ended: eb('ended', '+', 1),
      credits_used: eb('credits_used', '+', credits),
    }))
    .where('id', '=', id)
    .returning(['ended', 'total', 'status'])
    .executeTakeFirstOrThrow();
  return { ended: Number(row.ended), total: Number(row.total), status: row.status };
}

/**
 * A crawl's page that is not one of its pages after all (robots.txt disallows it, or it
 * landed on another page's URL) leaves the count of its pages; what it was charged (a
 * duplicate found only after its charge) still counts in the crawl's credits, so they equal
 * what the account paid. Returns the batch after.
 */
export async function uncountPage(
  db: Kysely<Database>,
  id: string,
  credits = 0,
): Promise<Pick<Batch, 'ended' | 'total' | 'status'>> {
  const row = await batchTables(db)
    .updateTable('batches')
    .set((eb) => ({ total: eb('total', '-', 1), credits_used: eb('credits_used', '+', credits) }))
    .where('id', '=', id)
    .returning(['ended', 'total', 'status'])
    .executeTakeFirstOrThrow();
  return { ended: Number(row.ended), total: Number(row.total), status: row.status };
}

/** Marks a running batch whose every page ended as completed; false if it was not running. */
export async function completeBatch(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await batchTables(db)
    .updateTable('batches')
    .set({ status: 'completed' })
    .where('id', '=', id)
    .where('status', '=', 'scraping')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes batches (and their pages) whose results expired; returns how many batches. */
export async function purgeBatches(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const t = batchTables(db);
  await t
    .deleteFrom('batch_pages')
    .where('batch_id', 'in', (eb) =>
      eb.selectFrom('batches').select('id').where('expires_at', '<=', now),
    )
    .execute();
  const result = await t.deleteFrom('batches').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
