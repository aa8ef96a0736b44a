/**
 * An extract's pages (migration 019): its list, written once in the transaction that counts
 * the map's credits, and each page's end (its Markdown, or why it could not be read), written
 * in the commit that settles the page's charge and counts it. A job that takes the extract over after a crash reads
 * them and scrapes only the pages that had not ended: none is scraped or charged twice.
 */
import type { Kysely } from 'kysely';
import type { ExtractsTable } from './extracts.js';
import type { Database } from './schema.js';

export type ExtractPageState = 'pending' | 'done' | 'failed';

export interface ExtractPagesTable {
  extract_id: string;
  position: number;
  url: string;
  state: ExtractPageState;
  markdown: string | null;
  error: string | null;
}

export interface ExtractPage {
  position: number;
  url: string;
  state: ExtractPageState;
  markdown: string | null;
  error: string | null;
}

const tables = (db: Kysely<Database>) =>
  db.withTables<{ extract_pages: ExtractPagesTable; extracts: ExtractsTable }>();

/** The extract's pages in order; empty: its list is not written yet. */
export async function extractPagesOf(
  db: Kysely<Database>,
  extractId: string,
): Promise<ExtractPage[]> {
  const rows = await tables(db)
    .selectFrom('extract_pages')
    .select(['position', 'url', 'state', 'markdown', 'error'])
    .where('extract_id', '=', extractId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ ...row, position: Number(row.position) }));
}

/** Writes the list once: a second writer (a job that lost its lease) adds nothing. */
export async function listExtractPages(
  db: Kysely<Database>,
  extractId: string,
  urls: readonly string[],
): Promise<void> {
  if (urls.length === 0) return;
  await tables(db)
    .insertInto('extract_pages')
    .values(
      urls.map((url, position) => ({
        extract_id: extractId,
        position,
        url,
        state: 'pending' as const,
        markdown: null,
        error: null,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function endExtractPage(
  db: Kysely<Database>,
  extractId: string,
  position: number,
  end: { state: 'done'; markdown: string } | { state: 'failed'; error: string },
): Promise<void> {
  await tables(db)
    .updateTable('extract_pages')
    .set(
      end.state === 'done'
        ? { state: 'done', markdown: end.markdown }
        : { state: 'failed', error: end.error },
    )
    .where('extract_id', '=', extractId)
    .where('position', '=', position)
    .execute();
}

/** An ended extract's pages are progress no longer needed; so are those of purged extracts. */
export async function dropExtractPages(db: Kysely<Database>, extractId?: string): Promise<void> {
  let query = tables(db).deleteFrom('extract_pages');
  query =
    extractId !== undefined
      ? query.where('extract_id', '=', extractId)
      : query.where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('extracts')
                .select('extracts.id')
                .whereRef('extracts.id', '=', 'extract_pages.extract_id'),
            ),
          ),
        );
  await query.execute();
}
