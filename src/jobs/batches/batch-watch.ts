/**
 * A batch's (or a crawl's) progress as a stream, for the Firecrawl door's WebSocket watch:
 * first a catch-up (the status and every document so far), then each document as its page
 * ends, then the end (the status that ended it). Read from the database at a modest
 * interval, not from an in-process bus: the page may end on any node.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { FirecrawlDocument } from '../../firecrawl/document.js';
import { type BatchStatus, getBatch } from '../../store/batches.js';
import type { Database } from '../../store/schema.js';
import { countFailedPages, firecrawlCounts, readPagesEndedAfter } from './page-reads.js';
import { documentOfStored } from './page-result.js';

/** How often a watch reads the batch again: a status poll's cost, a few times a second. */
export const WATCH_POLL_MS = 500;
/** Ended pages read at a time. */
const READ_CHUNK = 20;

export interface WatchSnapshot {
  status: BatchStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: number;
  error: string | null;
}

export type WatchEvent =
  | { type: 'catchup'; snapshot: WatchSnapshot; data: FirecrawlDocument[] }
  | { type: 'document'; document: FirecrawlDocument }
  /** `snapshot` null: the batch expired (or was purged) while watched. */
  | { type: 'end'; snapshot: WatchSnapshot | null };

export interface WatchOptions {
  /** Ends the stream (the socket closed). */
  signal: AbortSignal;
  pollMs?: number;
}

const ENDED: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'cancelled']);

async function snapshotOf(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<WatchSnapshot | null> {
  const batch = await getBatch(db, id);
  if (!batch || batch.accountId !== accountId || batch.expiresAt <= Date.now()) return null;
  return firecrawlCounts(batch, await countFailedPages(db, id));
}

/** Null when the batch is unknown, expired or another account's. */
export async function openBatchWatch(
  db: Kysely<Database>,
  accountId: string,
  id: string,
  options: WatchOptions,
): Promise<AsyncGenerator<WatchEvent> | null> {
  const first = await snapshotOf(db, accountId, id);
  if (!first) return null;
  return watch(db, accountId, id, first, options);
}

async function* watch(
  db: Kysely<Database>,
  accountId: string,
  id: string,
  first: WatchSnapshot,
  { signal, pollMs = WATCH_POLL_MS }: WatchOptions,
): AsyncGenerator<WatchEvent> {
  let lastSeq = 0;
  // The status is read before the pages: an ended batch's pages have all ended by then.
  async function* endedSinceLast(): AsyncGenerator<FirecrawlDocument> {
    for (;;) {
      const rows = await readPagesEndedAfter(db, id, lastSeq, READ_CHUNK);
      for (const row of rows) {
        lastSeq = row.seq;
        const document = row.result
          ? documentOfStored(row.result, { credits: row.credits, scrapeId: row.requestId })
          : null;
        if (document) yield document;
      }
      if (rows.length < READ_CHUNK) return;
    }
  }

  const data: FirecrawlDocument[] = [];
  for await (const document of endedSinceLast()) data.push(document);
  yield { type: 'catchup', snapshot: first, data };
  if (ENDED.has(first.status)) {
    yield { type: 'end', snapshot: first };
    return;
  }
  while (!signal.aborted) {
    await sleep(pollMs, undefined, { signal }).catch(() => {});
    if (signal.aborted) return;
    const snapshot = await snapshotOf(db, accountId, id);
    if (snapshot)
      for await (const document of endedSinceLast()) yield { type: 'document', document };
    if (!snapshot || ENDED.has(snapshot.status)) {
      yield { type: 'end', snapshot };
      return;
    }
  }
}
