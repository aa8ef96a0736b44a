/**
 * Where a batch's screenshots go: stored once when the page's result is kept, served at an
 * unguessable link (the door's screenshot route) until the batch's results expire, and
 * purged with the other expired page files.
 */
import type { Kysely } from 'kysely';
import type { ScreenshotLinks } from '../../firecrawl/document.js';
import { screenshotPath } from '../../firecrawl/door-services.js';
import type { Batch } from '../../store/batches.js';
import { savePageFile } from '../../store/page-files.js';
import type { Database } from '../../store/schema.js';

/** Kept a minute at least, should a page end just as its batch expires. */
const MIN_KEEP_MS = 60_000;

export function batchScreenshotLinks(
  db: Kysely<Database>,
  batch: Pick<Batch, 'accountId' | 'baseUrl' | 'expiresAt'>,
): ScreenshotLinks {
  return {
    async link(image) {
      const id = await savePageFile(db, {
        accountId: batch.accountId,
        contentType: image.contentType,
        body: Buffer.from(image.base64, 'base64'),
        keepMs: Math.max(MIN_KEEP_MS, batch.expiresAt - Date.now()),
      });
      return `${batch.baseUrl}${screenshotPath(id)}`;
    },
  };
}
