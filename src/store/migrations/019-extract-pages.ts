import type { Kysely } from 'kysely';

/**
 * An extract's pages as it reads them (issue 31): the list fixed once (after the map of a
 * `/*` target), then each page's Markdown or error as it ends, so that a job taken over after
 * a crash goes on from there instead of scraping and charging the pages again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('extract_pages')
    .addColumn('extract_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('markdown', 'text')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('extract_pages_pk', ['extract_id', 'position'])
    .execute();
}
