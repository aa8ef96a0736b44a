/**
 * The `batch_pages` table (migration 007): a batch's URLs. A lane takes the next queued page
 * in one statement (on PostgreSQL its inner SELECT skips rows another node is taking, as the
 * job queue does), keeps it `running` while it reserves, scrapes, stores and settles it, and
 * ends it; every write is conditional on the state it expects, so a second holder after a
 * lost lease changes nothing the first already wrote.
 */
import type { Kysely } from 'kysely';
import { type BatchPagesTable, batchTables, type PageState } from './batches.js';
import type { Dialect } from './dialect.js';
import type { Database } from './schema.js';

export interface BatchPage {
  id: string;
  batchId: string;
  idx: number;
  url: string;
  state: PageState;
  lane: number | null;
  requestId: string | null;
  plan: string | null;
  result: string | null;
  seq: number | null;
  credits: number;
  errorCode: string | null;
  error: string | null;
  endedAt: number | null;
  /** A crawl's page: its host and discovery depth (0 for a batch's pages). */
  host: string | null;
  depth: number;
  retries: number;
}

export function toPage(row: BatchPagesTable): BatchPage {
  return {
    id: row.id,
    batchId: row.batch_id,
    idx: Number(row.idx),
    url: row.url,
    state: row.state,
    lane: row.lane === null ? null : Number(row.lane),
    requestId: row.request_id,
    plan: row.plan,
    result: row.result,
    seq: row.seq === null ? null : Number(row.seq),
    credits: Number(row.credits),
    errorCode: row.error_code,
    error: row.error,
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    host: row.host ?? null,
    depth: Number(row.depth ?? 0),
    retries: Number(row.retries ?? 0),
  };
}

/** The page a lane holds (running), if any: what its previous holder left unfinished. */
export async function laneHeldPage(
  db: Kysely<Database>,
  batchId: string,
  lane: number,
): Promise<BatchPage | null> {
  const row = await batchTables(db)
    .selectFrom('batch_pages')
    .selectAll()
    .where('batch_id', '=', batchId)
    .where('state', '=', 'running')
    .where('lane', '=', lane)
    .executeTakeFirst();
  return row ? toPage(row) : null;
}

/** Gives the next queued page (lowest position) to the lane; null when none is left. */
export async function takeNextPage(
  db: Kysely<Database>,
  dialect: Dialect,
  batchId: string,
  lane: number,
): Promise<BatchPage | null> {
  const t = batchTables(db);
  const row = await t
    .updateTable('batch_pages')
    .set({ state: 'running', lane })
    // A scalar subquery runs once (an InitPlan on PostgreSQL). With `in`, PostgreSQL may
    // plan it as the inner side of a semi join, rerun it per row, and update nothing.
    .where('id', '=', (eb) => {
      const next = eb
        .selectFrom('batch_pages')
        .select('id')
        .where('batch_id', '=', batchId)
        .where('state', '=', 'queued')
        .orderBy('idx')
        .limit(1);
      return dialect === 'postgres' ? next.forUpdate().skipLocked() : next;
    })
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
  return row ? toPage(row) : null;
}

/** Keeps the page's reserved plan; false when the page already had one (another holder's). */
export async function savePagePlan(
  db: Kysely<Database>,
  pageId: string,
  requestId: string,
  plan: string,
): Promise<boolean> {
  const result = await batchTables(db)
    .updateTable('batch_pages')
    .set({ request_id: requestId, plan })
    .where('id', '=', pageId)
    .where('state', '=', 'running')
    .where('plan', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Keeps what the page's scrape produced, once: a second save keeps the first. `requestId`
 * names the charge when no plan did (a cache hit). Returns the page as stored.
 */
export async function savePageResult(
  db: Kysely<Database>,
  pageId: string,
  result: string,
  requestId: string,
): Promise<BatchPage | null> {
  const t = batchTables(db);
  await t
    .updateTable('batch_pages')
    .set((eb) => ({ result, request_id: eb.fn.coalesce('request_id', eb.val(requestId)) }))
    .where('id', '=', pageId)
    .where('result', 'is', null)
    .execute();
  return getPage(db, pageId);
}

export async function getPage(db: Kysely<Database>, pageId: string): Promise<BatchPage | null> {
  const row = await batchTables(db)
    .selectFrom('batch_pages')
    .selectAll()
    .where('id', '=', pageId)
    .executeTakeFirst();
  return row ? toPage(row) : null;
}

export interface PageEnd {
  state: 'done' | 'failed' | 'cancelled' | 'blocked' | 'redirected';
  credits: number;
  errorCode: string | null;
  error: string | null;
  endedAt: number;
}

/** Ends a running page; false when it was not running (already ended by another holder). */
export async function endPage(db: Kysely<Database>, pageId: string, end: PageEnd) {
  const result = await batchTables(db)
    .updateTable('batch_pages')
    .set({
      state: end.state,
      credits: end.credits,
      error_code: end.errorCode,
      error: end.error,
      ended_at: end.endedAt,
    })
    .where('id', '=', pageId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The page's place among its batch's ended pages (see batches.ts countPageEnd). */
export async function setPageSeq(db: Kysely<Database>, pageId: string, seq: number) {
  await batchTables(db).updateTable('batch_pages').set({ seq }).where('id', '=', pageId).execute();
}

/** What a request was charged: its settle row's amount, 0 when refunded or not settled. */
export async function chargedFor(db: Kysely<Database>, requestId: string): Promise<number> {
  // `kind in (settle, refund)` reads the one-end index; with `kind = settle` alone SQLite's
  // planner chose the (kind, created_at) index and scanned every settle row.
  const row = await db
    .selectFrom('ledger')
    .select(['amount', 'kind'])
    .where('request_id', '=', requestId)
    .where('kind', 'in', ['settle', 'refund'])
    .executeTakeFirst();
  return row?.kind === 'settle' ? Number(row.amount) : 0;
}

/** A batch's scraped pages in the order they ended, from `skip`, at most `limit`. */
export async function readDonePages(
  db: Kysely<Database>,
  batchId: string,
  skip: number,
  limit: number,
): Promise<Pick<BatchPage, 'id' | 'requestId' | 'credits' | 'result'>[]> {
  const rows = await batchTables(db)
    .selectFrom('batch_pages')
    .select(['id', 'request_id', 'credits', 'result'])
    .where('batch_id', '=', batchId)
    .where('state', '=', 'done')
    .orderBy('seq')
    .limit(limit)
    .offset(skip)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    requestId: row.request_id,
    credits: Number(row.credits),
    result: row.result,
  }));
}

/** A batch's failed pages, in the order they ended. */
export async function readFailedPages(
  db: Kysely<Database>,
  batchId: string,
): Promise<Pick<BatchPage, 'id' | 'url' | 'errorCode' | 'error' | 'endedAt'>[]> {
  const rows = await batchTables(db)
    .selectFrom('batch_pages')
    .select(['id', 'url', 'error_code', 'error', 'ended_at'])
    .where('batch_id', '=', batchId)
    .where('state', '=', 'failed')
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    errorCode: row.error_code,
    error: row.error,
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
  }));
}
