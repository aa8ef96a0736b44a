/**
 * The `request_results` table (migration 011): the results of recent scrapes, for the request
 * log's detail. Written behind the answer, compressed (kept-results.ts; `encoding`, migration
 * 014); the purge removes results older than the operator's retention and, per account, the
 * oldest ones past its byte budget (counted in the results' own sizes, as before compression).
 */
import { type Kysely, sql } from 'kysely';
import { preparedQuery } from './prepared-query.js';
import type { Database } from './schema.js';

export interface RequestResultsTable {
  request_id: string;
  account_id: string;
  content_type: string;
  body: Buffer | Uint8Array;
  /** The result's own size (the bytes answered), whatever `body`'s encoding. */
  size: number;
  created_at: number;
  /** 'br' (Brotli), or null: `body` is the result itself (as written before migration 014). */
  encoding: string | null;
  /**
   * On the embedded engine, the hash of the file holding the result (result-files.ts,
   * migration 020); `body` is then empty. Null: the result is `body`.
   */
  file: string | null;
}

export interface StoredResult {
  contentType: string;
  body: Buffer;
  createdAt: number;
}

/** A row as written by kept-results.ts: `stored` is `body` compressed with Brotli. */
export interface EncodedResult {
  requestId: string;
  accountId: string;
  contentType: string;
  body: Buffer;
  /** `body` compressed, or empty when `file` holds it. */
  stored: Buffer;
  /** The result's file (result-files.ts), or null: the row holds it. */
  file: string | null;
  createdAt: number;
}

function tables(db: Kysely<Database>) {
  return db.withTables<{ request_results: RequestResultsTable }>();
}

const insertResult = preparedQuery(
  (
    db,
    requestId: string,
    accountId: string,
    contentType: string,
    body: Buffer,
    size: number,
    createdAt: number,
  ) =>
    tables(db)
      .insertInto('request_results')
      .values({
        request_id: requestId,
        account_id: accountId,
        content_type: contentType,
        body,
        size,
        created_at: createdAt,
      })
      .onConflict((oc) => oc.column('request_id').doNothing()),
);

export async function saveRequestResult(
  db: Kysely<Database>,
  requestId: string,
  accountId: string,
  result: { contentType: string; body: Buffer },
): Promise<void> {
  await db.executeQuery(
    insertResult(
      db,
      requestId,
      accountId,
      result.contentType,
      result.body,
      result.body.length,
      Date.now(),
    ),
  );
}

/** The columns of one kept result as a multi-row insert binds them, in order. */
type ResultValues = [string, string, string, Buffer, number, number, string | null];

/**
 * The multi-row insert of `rows` results, built once per batch size and dialect: compiling
 * it anew for every batch (a value node per column and row) was 2% of the service's CPU
 * under load (bench/scrape-fetch.ts --profile). Batches hold at most 64 results
 * (kept-results.ts), so at most 64 texts per dialect.
 */
const insertResultsOf = new Map<number, ReturnType<typeof insertResults>>();

function insertResults(rows: number) {
  return preparedQuery((db, ...values: unknown[]) =>
    tables(db)
      .insertInto('request_results')
      .values(
        Array.from({ length: rows }, (_, row) => {
          const [requestId, accountId, contentType, body, size, createdAt, file] = values.slice(
            row * 7,
            row * 7 + 7,
          ) as ResultValues;
          return {
            request_id: requestId,
            account_id: accountId,
            content_type: contentType,
            body,
            size,
            created_at: createdAt,
            encoding: 'br',
            file,
          };
        }),
      )
      .onConflict((oc) => oc.column('request_id').doNothing()),
  );
}

/** Many compressed results in one statement (kept-results.ts); a result already kept stays. */
export async function saveRequestResults(
  db: Kysely<Database>,
  results: EncodedResult[],
): Promise<void> {
  if (results.length === 0) return;
  await db.executeQuery(resultsInsert(db, results));
}

/** `saveRequestResults`'s statement, compiled (for a synchronous unit); `results` not empty. */
export function resultsInsert(db: Kysely<Database>, results: EncodedResult[]) {
  let insert = insertResultsOf.get(results.length);
  if (!insert) {
    insert = insertResults(results.length);
    insertResultsOf.set(results.length, insert);
  }
  const values = results.flatMap(
    (result): ResultValues => [
      result.requestId,
      result.accountId,
      result.contentType,
      result.stored,
      result.body.length,
      result.createdAt,
      result.file,
    ],
  );
  return insert(db, ...values);
}

/** The row as stored: `body` in its `encoding` (kept-results.ts decodes it). */
export async function readRequestResult(
  db: Kysely<Database>,
  accountId: string,
  requestId: string,
): Promise<(StoredResult & { encoding: string | null; file: string | null }) | null> {
  const row = await tables(db)
    .selectFrom('request_results')
    .select(['content_type', 'body', 'created_at', 'encoding', 'file'])
    .where('request_id', '=', requestId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    contentType: row.content_type,
    body: Buffer.from(row.body),
    createdAt: Number(row.created_at),
    encoding: row.encoding,
    file: row.file,
  };
}

/**
 * Deletes results created before `before`, then, for each account over `maxBytesPerAccount`,
 * its oldest results until it fits. Returns how many were deleted.
 */
export async function purgeRequestResults(
  db: Kysely<Database>,
  before: number,
  maxBytesPerAccount: number,
): Promise<number> {
  const t = tables(db);
  const old = await t.deleteFrom('request_results').where('created_at', '<', before).execute();
  let deleted = Number(old[0]?.numDeletedRows ?? 0);
  const over = await t
    .selectFrom('request_results')
    .select(['account_id', sql<number>`sum(size)`.as('total')])
    .groupBy('account_id')
    .having(sql`sum(size)`, '>', maxBytesPerAccount)
    .execute();
  for (const { account_id: accountId, total } of over) {
    let excess = Number(total) - maxBytesPerAccount;
    // Newest last; ids are UUIDv7, so the oldest come first in index order.
    const rows = await t
      .selectFrom('request_results')
      .select(['request_id', 'size'])
      .where('account_id', '=', accountId)
      .orderBy('request_id')
      .execute();
    const doomed: string[] = [];
    for (const row of rows) {
      if (excess <= 0) break;
      doomed.push(row.request_id);
      excess -= Number(row.size);
    }
    for (let i = 0; i < doomed.length; i += 500) {
      await t
        .deleteFrom('request_results')
        .where('request_id', 'in', doomed.slice(i, i + 500))
        .execute();
    }
    deleted += doomed.length;
  }
  return deleted;
}

/** Whether a result is kept, and its type and size, without reading it. */
export async function resultInfo(
  db: Kysely<Database>,
  accountId: string,
  requestId: string,
): Promise<{ contentType: string; size: number; file: string | null } | null> {
  const row = await tables(db)
    .selectFrom('request_results')
    .select(['content_type', 'size', 'file'])
    .where('request_id', '=', requestId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? { contentType: row.content_type, size: Number(row.size), file: row.file } : null;
}

/** The files the kept results' rows name (result-files.ts's sweep keeps these). */
export async function referencedResultFiles(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await tables(db)
    .selectFrom('request_results')
    .select('file')
    .distinct()
    .where('file', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.file as string));
}
