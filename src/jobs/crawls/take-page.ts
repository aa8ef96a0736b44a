/**
 * Taking a crawl's next page is one transaction: the next queued page of the crawl whose
 * host is free (`FOR UPDATE SKIP LOCKED` on PostgreSQL), then the host's row locked, its
 * pages running (on every crawl and node) counted and its next start checked, and only then
 * the page marked running and the host's next start pushed back by its delay. Two nodes
 * taking pages of one host queue on the host's row, so the per-host bound holds across nodes.
 */
import type { Kysely } from 'kysely';
import {
  hostsRunningAtLeast,
  hostsWaiting,
  lockHost,
  markPageRunning,
  nextQueuedPage,
  openPagesOf,
  setHostNextAt,
} from '../../store/crawls.js';
import type { Dialect } from '../../store/dialect.js';
import { inTransaction, type RunInTransaction } from '../../store/in-transaction.js';
import type { Database } from '../../store/schema.js';
import type { TakeAnswer } from '../batches/lane-job.js';
import { busyHosts, hostVerdict, idleAnswer } from './crawl-decisions.js';

export interface Politeness {
  /** Pages of one host running at once, on every crawl and node. */
  hostConcurrency: number;
  /** The delay between two starts on the host, for this crawl. */
  delayMs(host: string): number;
}

export async function takeCrawlPage(
  db: Kysely<Database>,
  dialect: Dialect,
  batchId: string,
  lane: number,
  politeness: Politeness,
  transaction: RunInTransaction = (work) => inTransaction(db, work),
): Promise<TakeAnswer> {
  const now = Date.now();
  const { busy, soonest } = busyHosts(
    await hostsWaiting(db, now),
    await hostsRunningAtLeast(db, politeness.hostConcurrency),
    now,
  );

  const answer = await transaction(async (trx): Promise<TakeAnswer | null> => {
    const candidate = await nextQueuedPage(trx, dialect, batchId, now, busy);
    if (!candidate?.host) return null;
    const host = candidate.host;
    const verdict = hostVerdict(
      await lockHost(trx, dialect, host),
      now,
      politeness.hostConcurrency,
      politeness.delayMs(host),
    );
    if (verdict.type === 'wait') return verdict;
    const page = await markPageRunning(trx, candidate.id, lane);
    if (!page) return null;
    if (verdict.nextAt !== null) await setHostNextAt(trx, host, verdict.nextAt);
    return { type: 'page', page };
  });
  if (answer) return answer;

  // Nothing startable: is anything queued at all (later, or on a busy host)? One statement
  // (one snapshot): two would miss a page ending between them with its links just queued.
  return idleAnswer(now, soonest, await openPagesOf(db, batchId));
}
