/**
 * The `webhook_results` table (migration 003): what a webhook request's scrape produced, as
 * the bytes its deliveries send. Written before the credits are settled and deleted when the
 * delivery ends, so a re-claimed job can tell "scraped already" from "not yet".
 */
import type { Kysely } from 'kysely';
import type { ErrorCode } from '../errors.js';
import type { Database } from './schema.js';

export interface WebhookResultsTable {
  request_id: string;
  scrape_status: 'success' | 'failed';
  content_type: string;
  body: Uint8Array;
  target_status: number | null;
  target_url: string;
  error_code: string | null;
  created_at: number;
}

type WithResults = Database & { webhook_results: WebhookResultsTable };

/** The delivery's body and the facts its headers carry. */
export interface StoredResult {
  requestId: string;
  scrapeStatus: 'success' | 'failed';
  contentType: string;
  body: Buffer;
  targetStatus: number | null;
  targetUrl: string;
  errorCode: ErrorCode | null;
}

function tables(db: Kysely<Database>): Kysely<WithResults> {
  return db.withTables<{ webhook_results: WebhookResultsTable }>();
}

/** Stores the result once: a second save of the same request keeps the first. */
export async function saveResult(db: Kysely<Database>, stored: StoredResult): Promise<void> {
  await tables(db)
    .insertInto('webhook_results')
    .values({
      request_id: stored.requestId,
      scrape_status: stored.scrapeStatus,
      content_type: stored.contentType,
      body: stored.body,
      target_status: stored.targetStatus,
      target_url: stored.targetUrl,
      error_code: stored.errorCode,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('request_id').doNothing())
    .execute();
}

export async function loadResult(
  db: Kysely<Database>,
  requestId: string,
): Promise<StoredResult | null> {
  const row = await tables(db)
    .selectFrom('webhook_results')
    .selectAll()
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    requestId: row.request_id,
    scrapeStatus: row.scrape_status,
    contentType: row.content_type,
    body: Buffer.from(row.body),
    targetStatus: row.target_status === null ? null : Number(row.target_status),
    targetUrl: row.target_url,
    errorCode: row.error_code as ErrorCode | null,
  };
}

export async function deleteResult(db: Kysely<Database>, requestId: string): Promise<void> {
  await tables(db).deleteFrom('webhook_results').where('request_id', '=', requestId).execute();
}

/** True once the request's credits were settled or refunded (finish ran to its commit). */
export async function isSettled(db: Kysely<Database>, requestId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger')
    .select('id')
    .where('request_id', '=', requestId)
    .where('kind', 'in', ['settle', 'refund'])
    .executeTakeFirst();
  return row !== undefined;
}
