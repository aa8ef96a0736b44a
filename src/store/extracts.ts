/**
 * The Firecrawl door's extract jobs: one row each, its request as the caller sent it (JSON),
 * its state, and when it ends its answer (the model's JSON, the pages it read) or its error.
 * Rows past `expires_at` are deleted with the batches.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type ExtractStatus = 'processing' | 'completed' | 'failed' | 'cancelled';

export interface ExtractsTable {
  id: string;
  account_id: string;
  status: ExtractStatus;
  request: string;
  data: string | null;
  sources: string | null;
  error: string | null;
  credits_used: number;
  created_at: number;
  expires_at: number;
}

export interface ExtractRow {
  id: string;
  accountId: string;
  status: ExtractStatus;
  request: unknown;
  data: unknown;
  sources: string[] | null;
  error: string | null;
  creditsUsed: number;
  createdAt: number;
  expiresAt: number;
}

const tables = (db: Kysely<Database>) => db.withTables<{ extracts: ExtractsTable }>();

export async function insertExtract(
  db: Kysely<Database>,
  row: { id: string; accountId: string; request: unknown; createdAt: number; expiresAt: number },
): Promise<void> {
  await tables(db)
    .insertInto('extracts')
    .values({
      id: row.id,
      account_id: row.accountId,
      status: 'processing',
      request: JSON.stringify(row.request),
      data: null,
      sources: null,
      error: null,
      credits_used: 0,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** The account's extract; another account's is unknown (null) as a missing one is. */
export async function getExtract(
  db: Kysely<Database>,
  id: string,
  accountId?: string,
): Promise<ExtractRow | null> {
  let query = tables(db).selectFrom('extracts').selectAll().where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    status: row.status,
    request: JSON.parse(row.request),
    data: row.data === null ? null : JSON.parse(row.data),
    sources: row.sources === null ? null : (JSON.parse(row.sources) as string[]),
    error: row.error,
    creditsUsed: Number(row.credits_used),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** Adds credits spent so far (each page, the model call) to the extract's count. */
export async function addExtractCredits(
  db: Kysely<Database>,
  id: string,
  credits: number,
): Promise<void> {
  await tables(db)
    .updateTable('extracts')
    .set((eb) => ({ credits_used: eb('credits_used', '+', credits) }))
    .where('id', '=', id)
    .execute();
}

/** Ends a processing extract; one that ended already is left as it is. */
export async function endExtract(
  db: Kysely<Database>,
  id: string,
  end:
    | { status: 'completed'; data: unknown; sources: string[] }
    | { status: 'failed'; error: string },
): Promise<void> {
  await tables(db)
    .updateTable('extracts')
    .set(
      end.status === 'completed'
        ? {
            status: 'completed',
            data: JSON.stringify(end.data),
            sources: JSON.stringify(end.sources),
          }
        : { status: 'failed', error: end.error },
    )
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

export async function purgeExtracts(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const result = await tables(db)
    .deleteFrom('extracts')
    .where('expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
