/**
 * The `page_files` table (migration 006): screenshots served at a link with an unguessable id
 * (128 random bits), each kept until its expiry and then purged.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface PageFilesTable {
  id: string;
  account_id: string;
  content_type: string;
  body: Uint8Array;
  created_at: number;
  expires_at: number;
}

function tables(db: Kysely<Database>) {
  return db.withTables<{ page_files: PageFilesTable }>();
}

/** Stores the bytes; returns the file's id. */
export async function savePageFile(
  db: Kysely<Database>,
  file: { accountId: string; contentType: string; body: Buffer; keepMs: number },
): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  const now = Date.now();
  await tables(db)
    .insertInto('page_files')
    .values({
      id,
      account_id: file.accountId,
      content_type: file.contentType,
      body: file.body,
      created_at: now,
      expires_at: now + file.keepMs,
    })
    .execute();
  return id;
}

/** The file, unless unknown or expired. */
export async function readPageFile(
  db: Kysely<Database>,
  id: string,
): Promise<{ contentType: string; body: Buffer } | null> {
  const row = await tables(db)
    .selectFrom('page_files')
    .select(['content_type', 'body'])
    .where('id', '=', id)
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
  return row ? { contentType: row.content_type, body: Buffer.from(row.body) } : null;
}

export async function purgePageFiles(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const result = await tables(db)
    .deleteFrom('page_files')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
