/**
 * What a batch's status and its watch read of its pages beyond the batch row: how many
 * failed (Firecrawl counts a failed page neither in `completed` nor in `total`), and the
 * scraped pages that ended after a given place in the end order.
 */
import type { Kysely } from 'kysely';
import { type Batch, batchTables } from '../../store/batches.js';
import type { Database } from '../../store/schema.js';

export async function countFailedPages(db: Kysely<Database>, batchId: string): Promise<number> {
  const row = await batchTables(db)
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll<number | string>().as('failed'))
    .where('batch_id', '=', batchId)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(row?.failed ?? 0);
}

/**
 * A batch's status counts as Firecrawl's controller gives them: a failed page is under the
 * errors, in neither `completed` nor `total`. One place for the rule: the REST status and the
 * WebSocket watch both answer with it.
 */
export function firecrawlCounts(
  batch: Pick<Batch, 'status' | 'ended' | 'total' | 'creditsUsed' | 'expiresAt' | 'error'>,
  failed: number,
) {
  return {
    status: batch.status,
    completed: batch.ended - failed,
    total: batch.total - failed,
    creditsUsed: batch.creditsUsed,
    expiresAt: batch.expiresAt,
    error: batch.error,
  };
}

export interface EndedPage {
  seq: number;
  requestId: string | null;
  credits: number;
  result: string | null;
}

/**
 * Scraped pages whose place in the end order is after `afterSeq`, in that order, at most
 * `limit`. A page's place is taken in the transaction that ends it, under the batch row's
 * lock, so places commit in order: once a place is seen, none before it can appear later.
 */
export async function readPagesEndedAfter(
  db: Kysely<Database>,
  batchId: string,
  afterSeq: number,
  limit: number,
): Promise<EndedPage[]> {
  const rows = await batchTables(db)
    .selectFrom('batch_pages')
    .select(['seq', 'request_id', 'credits', 'result'])
    .where('batch_id', '=', batchId)
    .where('state', '=', 'done')
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    seq: Number(row.seq),
    requestId: row.request_id,
    credits: Number(row.credits),
    result: row.result,
  }));
}
