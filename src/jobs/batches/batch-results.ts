/**
 * One answer's worth of a batch's results: scraped pages in the order they ended, from
 * `skip`, at most `limit` of them and about MAX_RESULT_BYTES (always one, however large), read
 * a few rows at a time so that a page of large results stays bounded in memory.
 */
import type { Kysely } from 'kysely';
import type { FirecrawlDocument } from '../../firecrawl/document.js';
import { readDonePages } from '../../store/batches-pages.js';
import type { Database } from '../../store/schema.js';
import { documentOfStored } from './page-result.js';

/** Results per status answer unless `limit` asks otherwise (Firecrawl's default). */
export const DEFAULT_RESULTS_PER_ANSWER = 100;
/** Bytes of results per status answer, as Firecrawl bounds its pages (10 MiB). */
export const MAX_RESULT_BYTES = 10 * 1024 * 1024;
/** Rows read at a time while filling an answer. */
const READ_CHUNK = 20;

export interface ResultsPage {
  data: FirecrawlDocument[];
  /** Where the next answer starts, when results are left beyond this one. */
  nextSkip: number | null;
}

export async function readResults(
  db: Kysely<Database>,
  batchId: string,
  page: { skip?: number; limit?: number },
): Promise<ResultsPage> {
  const limit = Math.max(1, page.limit ?? DEFAULT_RESULTS_PER_ANSWER);
  const data: FirecrawlDocument[] = [];
  let bytes = 0;
  let offset = Math.max(0, page.skip ?? 0);
  for (;;) {
    // One row more than the answer holds tells whether a next answer exists.
    const want = Math.min(READ_CHUNK, limit - data.length + 1);
    const rows = await readDonePages(db, batchId, offset, want);
    for (const row of rows) {
      const size = row.result?.length ?? 0;
      if (data.length >= limit || (data.length > 0 && bytes + size > MAX_RESULT_BYTES)) {
        return { data, nextSkip: offset };
      }
      const document = row.result
        ? documentOfStored(row.result, { credits: row.credits, scrapeId: row.requestId })
        : null;
      if (document) data.push(document);
      bytes += size;
      offset++;
    }
    if (rows.length < want) return { data, nextSkip: null };
  }
}
