import type { Kysely } from 'kysely';
import {
  type FrontierUrl,
  insertRedirectedKey,
  lockCrawlRow,
  redirectQueuedRow,
  rowOfKey,
} from '../../store/crawls.js';
import type { Database } from '../../store/schema.js';
import { redirectLanding } from './crawl-decisions.js';

/**
 * Within a page's ending transaction: the page `pageId` ended on `target` (a redirect).
 * `keep`: the page stands for that URL, which joins the crawl's keys as a `redirected` row
 * (when new) or stops being a page of its own (when it was only queued, never loaded);
 * `duplicate`: another row has, or is loading, that URL's content.
 */
export async function landRedirect(
  trx: Kysely<Database>,
  batchId: string,
  pageId: string,
  target: FrontierUrl,
): Promise<'keep' | 'duplicate'> {
  await lockCrawlRow(trx, batchId);
  const landing = redirectLanding(await rowOfKey(trx, batchId, target.normUrl), pageId);
  switch (landing.type) {
    case 'keep':
    case 'duplicate':
      return landing.type;
    case 'add':
      await insertRedirectedKey(trx, batchId, target);
      return 'keep';
    case 'take-over':
      // Another page may have started it since the read: then it is that page's content.
      return (await redirectQueuedRow(trx, batchId, landing.rowId)) ? 'keep' : 'duplicate';
  }
}
